import type { INodeParameters } from 'n8n-workflow';

import { createTriggerHarness, type TriggerHarness } from '../../../harness/engine';
import { eventBody, minutesAgo, signedHeaders, triggerParameters } from './fixtures';

const SECRET = 'whsec_replay_window_test';
const MINUTE = 60_000;

/** A manual-subscription trigger: nothing is called on activation, the credential holds the secret. */
async function manualTrigger(options: INodeParameters = {}): Promise<TriggerHarness> {
	const harness = createTriggerHarness(
		triggerParameters({ subscription: 'manual', options }),
		{ apiKey: 'unused-key', baseUrl: 'https://127.0.0.1:9/v1' },
		{ signingSecretCredential: SECRET },
	);
	await harness.activate();
	return harness;
}

/** Delivers `body` as if the trigger's clock read `now`. */
async function deliverAt(harness: TriggerHarness, body: string, now: number) {
	const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
	try {
		return await harness.deliver({ body, headers: signedHeaders(body, SECRET) });
	} finally {
		clock.mockRestore();
	}
}

const summary = (result: { statusCode: number; runs: unknown[] }) => [
	result.statusCode,
	result.runs.length,
];

describe('the replay window refuses correctly signed deliveries outside it, with 403 and no run', () => {
	const t0 = Date.UTC(2026, 10, 24, 12, 0, 0);
	const stamped = (id: string) => eventBody('lead.qualified', { id }, new Date(t0).toISOString());

	it('at its old edge: 60 minutes is accepted, 60 minutes and 1 ms is refused', async () => {
		const harness = await manualTrigger();
		expect(summary(await deliverAt(harness, stamped('lead_a'), t0 + 60 * MINUTE))).toEqual([
			200, 1,
		]);
		const late = await deliverAt(harness, stamped('lead_b'), t0 + 60 * MINUTE + 1);
		expect(summary(late)).toEqual([403, 0]);
		expect(late.body).toBe('Forbidden');
		expect(harness.logs.some((line) => /warn.*older than 60 minutes/.test(line))).toBe(true);
	});

	it('at its future edge: 5 minutes ahead is accepted, 5 minutes and 1 ms is refused', async () => {
		const harness = await manualTrigger();
		expect(summary(await deliverAt(harness, stamped('lead_c'), t0 - 5 * MINUTE))).toEqual([200, 1]);
		expect(summary(await deliverAt(harness, stamped('lead_d'), t0 - 5 * MINUTE - 1))).toEqual([
			403, 0,
		]);
	});

	it('follows the Maximum Event Age option', async () => {
		const harness = await manualTrigger({ maxEventAge: 120 });
		expect(summary(await deliverAt(harness, stamped('lead_e'), t0 + 119 * MINUTE))).toEqual([
			200, 1,
		]);
		expect(summary(await deliverAt(harness, stamped('lead_f'), t0 + 121 * MINUTE))).toEqual([
			403, 0,
		]);
	});

	it('answers 400 to a signed event without a usable timestamp', async () => {
		const harness = await manualTrigger();
		for (const timestamp of [undefined, 'not a date']) {
			const body = JSON.stringify({ event: 'lead.qualified', timestamp, data: { id: 'lead_g' } });
			expect(summary(await deliverAt(harness, body, t0))).toEqual([400, 0]);
		}
	});

	it('a captured delivery sent again at any later time never starts a second run', async () => {
		const harness = await manualTrigger();
		const captured = stamped('lead_h');
		const answers = [];
		for (const minutes of [0, 1, 6, 36, 59, 64, 65, 66, 120, 24 * 60]) {
			answers.push([
				minutes,
				...summary(await deliverAt(harness, captured, t0 + minutes * MINUTE)),
			]);
		}
		expect(answers).toEqual([
			[0, 200, 1],
			[1, 200, 0],
			[6, 200, 0],
			[36, 200, 0],
			[59, 200, 0],
			[64, 403, 0],
			[65, 403, 0],
			[66, 403, 0],
			[120, 403, 0],
			[24 * 60, 403, 0],
		]);
	});

	it('one stamped 5 minutes ahead is still remembered when it turns 60 minutes old', async () => {
		const harness = await manualTrigger();
		const ahead = stamped('lead_i');
		const firstSeen = t0 - 5 * MINUTE;
		expect(summary(await deliverAt(harness, ahead, firstSeen))).toEqual([200, 1]);
		expect(summary(await deliverAt(harness, ahead, t0 + 60 * MINUTE))).toEqual([200, 0]);
	});
});

describe('who answers the service, and when', () => {
	it('an accepted event is answered by n8n after the run is handed over, not inside webhook()', async () => {
		const harness = await manualTrigger();
		const body = eventBody('lead.qualified', { id: 'lead_j', score: 80 }, minutesAgo(1));
		const result = await harness.deliver({ body, headers: signedHeaders(body, SECRET) });
		expect(result.answeredInWebhook).toBe(false);
		expect(result.noWebhookResponse).toBeUndefined();
		expect(result.statusCode).toBe(200);
		expect(result.body).toEqual({ received: true });
		expect(result.runs).toHaveLength(1);
	});

	it('a refusal is answered at once inside webhook() and starts nothing', async () => {
		const harness = await manualTrigger();
		const body = eventBody('lead.qualified', { id: 'lead_k' }, minutesAgo(1));
		const result = await harness.deliver({ body, headers: signedHeaders(body, 'other') });
		expect([result.statusCode, result.answeredInWebhook, result.runs.length]).toEqual([
			401,
			true,
			0,
		]);
	});

	it('a duplicate or an unsubscribed event is answered 200 by n8n with no run', async () => {
		const harness = await manualTrigger();
		const body = eventBody('lead.qualified', { id: 'lead_l' }, minutesAgo(1));
		await harness.deliver({ body, headers: signedHeaders(body, SECRET) });
		const other = eventBody('lead.created', { id: 'lead_l' }, minutesAgo(1));
		for (const repeat of [body, other]) {
			const result = await harness.deliver({
				body: repeat,
				headers: signedHeaders(repeat, SECRET),
			});
			expect([
				result.statusCode,
				result.body,
				result.answeredInWebhook,
				result.runs.length,
			]).toEqual([200, { received: true }, false, 0]);
		}
	});
});
