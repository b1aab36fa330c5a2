// 10,000 deliveries that are not what the service signed: every one must be answered 401 and
// start no run. Then replays: correctly signed deliveries sent again (inside the replay window:
// 200, no run; outside it: 403, no run) and signed events stamped outside the window (403). They go through the trigger's webhook() in n8n's WebhookContext in-process, and a
// sample goes over real HTTPS from the service to the trigger.

import { randomBytes } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import {
	startTestSandbox,
	startWebhookReceiver,
	type DeliveryResult,
	type RunningSandbox,
	type TriggerHarness,
	type WebhookReceiver,
} from '../../harness/engine';
import { seededRandom } from '../../harness/support/random';
import { credentialsOf, scaled, seconds } from './support/common';
import { count, recordFigure } from './support/figures';
import {
	SIGNATURE,
	couldBeGenuine,
	eventBodies,
	headersFor,
	hmacHex,
	mutate,
} from './support/deliveryFuzzer';
import { SecretTrace } from './support/trace';

const DELIVERIES = scaled(10_000, 500);
const REPLAYS = scaled(2_000, 200);
const MINUTE = 60_000;
const HTTP_SAMPLE = scaled(200, 50);
const SEED = 20_250_501;

let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let trigger: TriggerHarness;
let secret: string;
const trace = new SecretTrace('fuzzedDeliveries.reliability.ts');

beforeAll(async () => {
	sandbox = await startTestSandbox();
	receiver = await startWebhookReceiver();
	trace.addApiKeys(sandbox);
	trigger = receiver.attachTrigger(
		{ events: ['*'], subscription: 'automatic', options: {} },
		credentialsOf(sandbox),
	);
	await trigger.activate();
	const [subscription] = sandbox.control.webhooks();
	secret = subscription.secret;
	trace.addSecret(secret, 'the signing secret');
	expect(trigger.staticData.signingSecret).toBe(secret);
});

afterAll(async () => {
	await trigger.deactivate();
	await receiver.close();
	await sandbox.close();
});

const byKind = new Map<string, { sent: number; refused: number }>();
let inProcess = { sent: 0, refused: 0, runs: 0, thrown: 0 };
let overHttp = { sent: 0, refused: 0, runs: 0 };
let genuine = { sent: 0, accepted: 0 };
const replays = { sent: 0, runs: 0, captured: 0, capturedRuns: 0, wrong: [] as string[] };
const replaysByKind = new Map<string, { sent: number; expected: number }>();

function tally(kind: string, result: DeliveryResult): void {
	const entry = byKind.get(kind) ?? { sent: 0, refused: 0 };
	entry.sent++;
	if (result.statusCode === 401 && result.runs.length === 0) entry.refused++;
	byKind.set(kind, entry);
}

it(`answers ${count(DELIVERIES)} fuzzed deliveries with 401 and starts no run`, async () => {
	const random = seededRandom(SEED);
	const bodies = eventBodies(sandbox);
	const otherSecrets = [sandbox.keys.full, randomBytes(32).toString('hex')];
	const startedAt = Date.now();
	const slips: string[] = [];

	for (let turn = 0; inProcess.sent < DELIVERIES; turn++) {
		const mutation = mutate(random, turn, bodies, secret, otherSecrets);
		if (couldBeGenuine(mutation, secret)) continue;
		const result = await trigger.deliver({
			body: mutation.body,
			headers: headersFor(mutation, random),
		});
		trace.addDelivery(`fuzzed delivery ${turn} (${mutation.kind})`, result);
		inProcess.sent++;
		inProcess.runs += result.runs.length;
		if (result.error) inProcess.thrown++;
		if (result.statusCode === 401 && result.runs.length === 0) inProcess.refused++;
		else if (slips.length < 5) slips.push(`turn ${turn} (${mutation.kind}): ${result.statusCode}`);
		tally(mutation.kind, result);

		// Every 100th turn a genuine delivery proves the trigger is listening at all.
		if (turn % 100 === 0) {
			const body = Buffer.from(
				JSON.stringify({
					event: 'lead.qualified',
					timestamp: new Date(Date.now() - 60_000).toISOString(),
					organization_id: 'org_alpha',
					data: { id: `lead_genuine_${turn}`, name: 'Genuine', score: 90, status: 'qualified' },
				}),
			);
			const valid = await trigger.deliver({
				body,
				headers: { 'content-type': 'application/json', [SIGNATURE]: hmacHex(body, secret) },
			});
			trace.addDelivery(`genuine delivery ${turn}`, valid);
			genuine.sent++;
			if (valid.statusCode === 200 && valid.runs.length === 1) genuine.accepted++;
		}
	}
	const elapsed = Date.now() - startedAt;
	(inProcess as IDataObject).elapsed = elapsed;

	expect(slips).toEqual([]);
	expect(inProcess.refused).toBe(DELIVERIES);
	expect(inProcess.runs).toBe(0);
	expect(inProcess.thrown).toBe(0);
	expect(genuine.accepted).toBe(genuine.sent);
	expect(byKind.size).toBe(16);
});

it(`answers a sample of ${HTTP_SAMPLE} fuzzed deliveries sent by the service over HTTPS with 401, starting no run`, async () => {
	const random = seededRandom(SEED + 1);
	const bodies = eventBodies(sandbox);
	const subscriptionId = String(trigger.staticData.subscriptionId);
	receiver.received.length = 0;

	for (let turn = 0; overHttp.sent < HTTP_SAMPLE; turn++) {
		const mutation = mutate(random, turn, bodies, secret, [sandbox.keys.full]);
		// An absent header cannot be asked of the service: it always signs. Sent empty instead.
		if (couldBeGenuine(mutation, secret)) continue;
		const header = mutation.header ?? '';
		const answer = await sandbox.control.deliverRaw(subscriptionId, mutation.body, {
			[SIGNATURE]: header as string,
		});
		overHttp.sent++;
		if (answer.status === 401) overHttp.refused++;
	}
	for (const request of receiver.received) {
		if (request.result) trace.addDelivery('fuzzed delivery over HTTPS', request.result);
		overHttp.runs += request.result?.runs.length ?? 0;
	}

	// The same path with the service's own signature is accepted: the sample tested the check.
	const body = Buffer.from(
		JSON.stringify({
			event: 'lead.qualified',
			timestamp: new Date().toISOString(),
			organization_id: 'org_alpha',
			data: { id: 'lead_https_genuine', score: 88 },
		}),
	);
	const genuineOverHttp = await sandbox.control.deliverRaw(subscriptionId, body);

	expect(overHttp.refused).toBe(HTTP_SAMPLE);
	expect(overHttp.runs).toBe(0);
	expect(receiver.received).toHaveLength(HTTP_SAMPLE + 1);
	expect(genuineOverHttp.status).toBe(200);
	expect(receiver.received[HTTP_SAMPLE].result?.runs).toHaveLength(1);
});

it(`starts no second run for ${count(REPLAYS)} replays of correctly signed deliveries, at any time`, async () => {
	const random = seededRandom(SEED + 2);
	const pick = (n: number) => Math.floor(random() * n);
	const t0 = Date.now();
	const at = async (now: number, body: Buffer) => {
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
		try {
			return await trigger.deliver({
				body,
				headers: { 'content-type': 'application/json', [SIGNATURE]: hmacHex(body, secret) },
			});
		} finally {
			clock.mockRestore();
		}
	};
	const signedEvent = (id: string, stampedAt: number) =>
		Buffer.from(
			JSON.stringify({
				event: 'lead.qualified',
				timestamp: new Date(stampedAt).toISOString(),
				organization_id: 'org_alpha',
				data: { id, name: 'Replayed', score: 90, status: 'qualified' },
			}),
		);
	const note = (kind: string, result: DeliveryResult, status: number) => {
		trace.addDelivery(`replay (${kind})`, result);
		const entry = replaysByKind.get(kind) ?? { sent: 0, expected: 0 };
		entry.sent++;
		replays.sent++;
		replays.runs += result.runs.length;
		if (result.statusCode === status && result.runs.length === 0) entry.expected++;
		else if (replays.wrong.length < 5) replays.wrong.push(`${kind}: ${result.statusCode}`);
		replaysByKind.set(kind, entry);
	};

	// Deliveries captured on the way: each accepted once, with one run.
	const captured = Array.from({ length: 50 }, (_, index) => {
		const stampedAt = t0 - pick(5 * MINUTE);
		return { body: signedEvent(`lead_captured_${index}`, stampedAt), stampedAt };
	});
	for (const { body, stampedAt } of captured) {
		const first = await at(stampedAt + pick(10_000), body);
		replays.captured++;
		replays.capturedRuns += first.runs.length;
	}

	while (replays.sent < REPLAYS) {
		const turn = replays.sent;
		const { body, stampedAt } = captured[pick(captured.length)];
		switch (turn % 4) {
			case 0: // sent again while the service could still be retrying
				note('inside the window', await at(stampedAt + pick(60 * MINUTE), body), 200);
				break;
			case 1: // sent again after the window, up to a week later
				note(
					'after the window',
					await at(stampedAt + 60 * MINUTE + 1 + pick(7 * 24 * 60 * MINUTE), body),
					403,
				);
				break;
			case 2: // never seen, signed, stamped before the window
				note(
					'stamped too old',
					await at(
						t0,
						signedEvent(`lead_old_${turn}`, t0 - 60 * MINUTE - 1 - pick(30 * 24 * 60 * MINUTE)),
					),
					403,
				);
				break;
			default: // never seen, signed, stamped too far ahead
				note(
					'stamped ahead',
					await at(
						t0,
						signedEvent(`lead_ahead_${turn}`, t0 + 5 * MINUTE + 1 + pick(365 * 24 * 60 * MINUTE)),
					),
					403,
				);
		}
	}

	expect(replays.capturedRuns).toBe(replays.captured);
	expect(replays.wrong).toEqual([]);
	expect(replays.runs).toBe(0);
});

afterAll(() => {
	const kinds = [...byKind.entries()]
		.map(([kind, { sent, refused }]) => `${kind} ${refused}/${sent}`)
		.join(', ');
	recordFigure({
		id: 'fuzzedDeliveries',
		pass:
			inProcess.sent === 10_000 &&
			inProcess.refused === inProcess.sent &&
			inProcess.runs === 0 &&
			overHttp.sent > 0 &&
			overHttp.refused === overHttp.sent &&
			overHttp.runs === 0 &&
			replays.sent === REPLAYS &&
			replays.runs === 0 &&
			replays.wrong.length === 0 &&
			replays.capturedRuns === replays.captured,
		measured:
			`in-process (n8n WebhookContext): ${count(inProcess.refused)}/${count(inProcess.sent)} answered 401 ` +
			`(${((100 * inProcess.refused) / Math.max(1, inProcess.sent)).toFixed(2)}%), ${inProcess.runs} runs, ` +
			`${seconds(Number((inProcess as IDataObject).elapsed ?? 0))}; over HTTPS from the service: ` +
			`${overHttp.refused}/${overHttp.sent} answered 401, ${overHttp.runs} runs; ` +
			`${genuine.accepted}/${genuine.sent} genuine deliveries mixed in were accepted with one run each; by kind: ${kinds}; ` +
			`replays of ${replays.captured} captured signed deliveries (${replays.capturedRuns} first runs): ${count(replays.sent)} sent, ${replays.runs} runs, ` +
			[...replaysByKind.entries()]
				.map(
					([kind, { sent, expected }]) =>
						`${kind} ${expected}/${sent} answered ${kind === 'inside the window' ? '200' : '403'}`,
				)
				.join(', '),
	});
});

it('shows neither the API keys nor the signing secret in any answer, run item or log line of this file', () => {
	expect(trace.scan()).toEqual([]);
});
