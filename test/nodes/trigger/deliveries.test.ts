import type { IDataObject } from 'n8n-workflow';

import {
	allLogs,
	createTriggerHarness,
	startTestSandbox,
	type RunningSandbox,
	type TriggerHarness,
} from '../../../harness/engine';
import {
	Receiver,
	SIGNATURE,
	eventBody,
	hmacHex,
	minutesAgo,
	signedHeaders,
	storedSecret,
	triggerParameters,
} from './fixtures';
import { deliveryKeyDigest } from '../../../nodes/shared/events/dedup';
import { FETCH_BUDGET_MS } from '../../../nodes/LeadConversationsTrigger/delivery/currentLead';
import { seededRandom } from '../../../harness/support/random';
import { mutateSignedDelivery } from './mutations';

/** Event times inside the replay window while the file runs. */
const T0 = minutesAgo(10);
const T0_PLUS_5 = minutesAgo(5);

let sandbox: RunningSandbox;
let receiver: Receiver;
/** Every signing secret handed out in this file, to prove none of them leaks anywhere. */
const secretsSeen = new Set<string>();
/** Every item any run started with. */
const outputsSeen: IDataObject[] = [];

beforeAll(async () => {
	sandbox = await startTestSandbox({ retryScale: 0.002 });
	receiver = await Receiver.start();
});

afterAll(async () => {
	await receiver.close();
	await sandbox.close();
});

beforeEach(() => {
	sandbox.control.reset();
});

/** An active trigger whose webhook URL is the local HTTPS receiver the sandbox delivers to. */
async function activeTrigger(parameters = triggerParameters()): Promise<TriggerHarness> {
	const harness = createTriggerHarness(
		parameters,
		{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
		{ webhookBaseUrl: receiver.baseUrl },
	);
	receiver.attach(harness);
	await harness.activate();
	secretsSeen.add(storedSecret(harness));
	return harness;
}

async function deliver(
	harness: TriggerHarness,
	body: string | Buffer,
	headers: Record<string, string | string[]>,
) {
	const result = await harness.deliver({ body, headers });
	for (const run of result.runs) for (const item of run) outputsSeen.push(item.json);
	return result;
}

function subscriptionId(harness: TriggerHarness): string {
	return String(harness.staticData.subscriptionId);
}

async function settled(): Promise<void> {
	await sandbox.control.whenDeliveriesSettled();
	for (const run of receiver.runs) for (const item of run) outputsSeen.push(item.json);
}

describe('a verified delivery', () => {
	it('of a lead qualified in the service starts one run whose item is exactly the delivered payload', async () => {
		await activeTrigger();
		const lead = sandbox.control.createChannelLead({ channel: 'chat_app' });

		sandbox.control.qualifyLead(lead.id, 90);
		await settled();

		const deliveries = sandbox.control.deliveries();
		expect(deliveries).toHaveLength(1);
		expect(deliveries[0]).toMatchObject({
			event: 'lead.qualified',
			attempt: 1,
			status: 200,
			ok: true,
		});
		const payload = JSON.parse(deliveries[0].body) as IDataObject;
		expect(receiver.runs).toEqual([
			[{ json: { ...payload, delivery_key: deliveryKeyDigest(payload) } }],
		]);
		expect(deliveryKeyDigest(payload)).toMatch(/^[0-9a-f]{64}$/);
		expect(receiver.runs[0][0].json).toMatchObject({
			event: 'lead.qualified',
			organization_id: 'org_alpha',
			data: { id: lead.id, score: 90, status: 'qualified' },
		});
	});

	it('with Output set to Data Only starts the run with the data object alone', async () => {
		const harness = await activeTrigger(triggerParameters({ options: { output: 'data' } }));
		const data = { id: 'lead_9', name: 'Ana', score: 77, status: 'qualified' };
		const body = eventBody('lead.qualified', data);

		const result = await deliver(harness, body, signedHeaders(body, storedSecret(harness)));

		const payload = JSON.parse(body) as IDataObject;
		expect(result.runs).toEqual([
			[{ json: { ...data, delivery_key: deliveryKeyDigest(payload) } }],
		]);
	});

	it('answers the service 200 with a body that says nothing but "received"', async () => {
		const harness = await activeTrigger();
		const body = eventBody('lead.qualified', { id: 'lead_10' });
		const result = await deliver(harness, body, signedHeaders(body, storedSecret(harness)));
		expect(result.statusCode).toBe(200);
		expect(result.body).toEqual({ received: true });
	});

	it.each([
		['x-service-signature', false],
		['X-SERVICE-SIGNATURE', false],
		['X-Service-Signature', true],
	])(
		'reads the header %s whatever its case (digest in upper case: %s)',
		async (name, upperCase) => {
			const harness = await activeTrigger();
			const body = eventBody('lead.qualified', { id: `lead_${name}` });
			const digest = hmacHex(body, storedSecret(harness));
			const result = await deliver(harness, body, {
				[name]: upperCase ? digest.toUpperCase() : digest,
			});
			expect(result.statusCode).toBe(200);
			expect(result.runs).toHaveLength(1);
		},
	);
});

describe('a delivery that fails verification gets 401, starts no run and learns nothing', () => {
	const body = eventBody('lead.qualified', { id: 'lead_1', score: 91 }, T0);
	const reserialized = JSON.stringify(JSON.parse(body), null, 1);
	type Case = [
		string,
		(secret: string) => { body: string | Buffer; headers: Record<string, string | string[]> },
	];
	const cases: Case[] = [
		[
			'an altered byte in the body',
			(s) => ({ body: body.replace('91', '92'), headers: { [SIGNATURE]: hmacHex(body, s) } }),
		],
		[
			'an altered digest',
			(s) => {
				const digest = hmacHex(body, s);
				return {
					body,
					headers: { [SIGNATURE]: (digest[0] === 'a' ? 'b' : 'a') + digest.slice(1) },
				};
			},
		],
		[
			'a truncated digest',
			(s) => ({ body, headers: { [SIGNATURE]: hmacHex(body, s).slice(0, 40) } }),
		],
		[
			'the digest of another body',
			(s) => ({
				body,
				headers: { [SIGNATURE]: hmacHex(eventBody('lead.qualified', { id: 'lead_2' }), s) },
			}),
		],
		['no signature header', () => ({ body, headers: { 'Content-Type': 'application/json' } })],
		['an empty signature header', () => ({ body, headers: { [SIGNATURE]: '' } })],
		[
			'a digest made with an empty secret',
			() => ({ body, headers: { [SIGNATURE]: hmacHex(body, '') } }),
		],
		[
			'the body re-serialized with other spacing',
			(s) => ({ body: reserialized, headers: { [SIGNATURE]: hmacHex(body, s) } }),
		],
		[
			'the signature header sent twice',
			(s) => ({ body, headers: { [SIGNATURE]: [hmacHex(body, s), hmacHex(body, s)] } }),
		],
		[
			'a "sha256=" prefix',
			(s) => ({ body, headers: { [SIGNATURE]: `sha256=${hmacHex(body, s)}` } }),
		],
	];

	it.each(cases)('%s', async (_case, build) => {
		const harness = await activeTrigger();
		const { body: sent, headers } = build(storedSecret(harness));

		const result = await deliver(harness, sent, headers);

		expect(result.statusCode).toBe(401);
		expect(result.body).toBe('Unauthorized');
		expect(result.runs).toEqual([]);
	});

	it('with no secret known at all (nothing stored, nothing typed), even a digest for an empty key', async () => {
		const harness = createTriggerHarness(triggerParameters(), {
			apiKey: sandbox.keys.full,
			baseUrl: sandbox.baseUrl,
		});
		const result = await deliver(harness, body, { [SIGNATURE]: hmacHex(body, '') });
		expect(result.statusCode).toBe(401);
		expect(result.runs).toEqual([]);
	});

	it('also when it comes from the service over HTTPS with a wrong signature', async () => {
		const harness = await activeTrigger();
		const genuine = eventBody('lead.qualified', { id: 'lead_3', score: 70 });

		const result = await sandbox.control.deliverRaw(
			subscriptionId(harness),
			genuine.replace('70', '99'),
			{
				[SIGNATURE]: hmacHex(genuine, storedSecret(harness)),
			},
		);

		expect(result).toMatchObject({ status: 401, ok: false });
		expect(receiver.received).toEqual([
			{ path: new URL(harness.webhookUrl).pathname, answered: 401, nodeStatus: 401, runs: [] },
		]);
	});

	it('for each of 1,200 random mutations of a signed delivery', async () => {
		const harness = await activeTrigger();
		const secret = storedSecret(harness);
		const random = seededRandom(4242);
		const original = Buffer.from(
			eventBody('lead.qualified', { id: 'lead_4', score: 83, intent: 'purchase_30_days' }),
		);
		const answers = new Map<string, number>();
		let runs = 0;

		for (let i = 0; i < 1200; i++) {
			const mutated = mutateSignedDelivery(random, original, hmacHex(original, secret));
			const result = await harness.deliver({
				body: mutated.body,
				headers: { [SIGNATURE]: mutated.header },
			});
			const answer = `${result.statusCode} ${String(result.body)}`;
			answers.set(answer, (answers.get(answer) ?? 0) + 1);
			runs += result.runs.length;
		}

		expect([...answers.entries()]).toEqual([['401 Unauthorized', 1200]]);
		expect(runs).toBe(0);
		// The unmutated delivery still runs: the mutations, not the set-up, were refused.
		const control = await harness.deliver({
			body: original,
			headers: { [SIGNATURE]: hmacHex(original, secret) },
		});
		expect(control.runs).toHaveLength(1);
	});
});

describe('after verification', () => {
	it('a body that is not JSON gets 400 and no run', async () => {
		const harness = await activeTrigger();
		for (const body of [
			'{"event":"lead.qualified",',
			'plain text',
			'[1,2]',
			'{"data":{"id":"lead_1"}}',
		]) {
			const result = await deliver(harness, body, signedHeaders(body, storedSecret(harness)));
			expect({ body, status: result.statusCode, answer: result.body, runs: result.runs }).toEqual({
				body,
				status: 400,
				answer: 'Bad Request',
				runs: [],
			});
		}
	});

	it('an event not subscribed to gets 200 and no run', async () => {
		const harness = await activeTrigger(triggerParameters({ events: ['lead.qualified'] }));
		const body = eventBody('lead.created', { id: 'lead_5' });

		const result = await sandbox.control.deliverRaw(subscriptionId(harness), body);

		expect(result).toMatchObject({ status: 200, ok: true });
		expect(receiver.received).toHaveLength(1);
		expect(receiver.runs).toEqual([]);
	});

	it('"All events" runs for any event name, also ones the list does not know', async () => {
		const harness = await activeTrigger(triggerParameters({ events: ['*'] }));
		const body = eventBody('lead.reactivated', { id: 'lead_6' });
		const result = await deliver(harness, body, signedHeaders(body, storedSecret(harness)));
		expect(result.runs).toHaveLength(1);
	});

	it('a typed event name is accepted like a listed one', async () => {
		const harness = createTriggerHarness(
			triggerParameters({
				subscription: 'manual',
				signingSecret: 'pasted',
				events: [],
				otherEvents: 'lead.reactivated',
			}),
			{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
		);
		await harness.activate();
		const typed = eventBody('lead.reactivated', { id: 'lead_7' });
		const other = eventBody('lead.created', { id: 'lead_7' });
		expect((await deliver(harness, typed, signedHeaders(typed, 'pasted'))).runs).toHaveLength(1);
		expect((await deliver(harness, other, signedHeaders(other, 'pasted'))).runs).toEqual([]);
	});
});

describe('duplicates (same event, data.id, timestamp and data)', () => {
	it('a delivery received three times starts one run; every copy is answered 200', async () => {
		const harness = await activeTrigger();
		const body = eventBody('lead.qualified', { id: 'lead_8', score: 95 }, T0);
		const headers = signedHeaders(body, storedSecret(harness));

		const results = [];
		for (let copy = 0; copy < 3; copy++) results.push(await deliver(harness, body, headers));

		expect(results.map((result) => [result.statusCode, result.runs.length])).toEqual([
			[200, 1],
			[200, 0],
			[200, 0],
		]);
	});

	it('is told apart by event and timestamp: a later event about the same lead runs again', async () => {
		const harness = await activeTrigger(
			triggerParameters({ events: ['lead.qualified', 'lead.assigned'] }),
		);
		const secret = storedSecret(harness);
		const bodies = [
			eventBody('lead.qualified', { id: 'lead_8' }, T0),
			eventBody('lead.assigned', { id: 'lead_8' }, T0),
			eventBody('lead.qualified', { id: 'lead_8' }, T0_PLUS_5),
		];
		for (const body of bodies) {
			expect((await deliver(harness, body, signedHeaders(body, secret))).runs).toHaveLength(1);
		}
	});

	it('the same body re-serialized by the service with other spacing is still one event', async () => {
		const harness = await activeTrigger();
		const secret = storedSecret(harness);
		const compact = eventBody('lead.qualified', { id: 'lead_11' }, T0);
		const spaced = JSON.stringify(JSON.parse(compact), null, 2);
		expect((await deliver(harness, compact, signedHeaders(compact, secret))).runs).toHaveLength(1);
		expect((await deliver(harness, spaced, signedHeaders(spaced, secret))).runs).toEqual([]);
	});

	it('the same event re-serialized with its keys in another order is still one event', async () => {
		const harness = await activeTrigger();
		const secret = storedSecret(harness);
		const timestamp = T0;
		const first = eventBody(
			'lead.qualified',
			{ id: 'lead_13', score: 81, intent: 'browsing' },
			timestamp,
		);
		const reordered = JSON.stringify({
			data: { intent: 'browsing', score: 81, id: 'lead_13' },
			organization_id: 'org_alpha',
			timestamp,
			event: 'lead.qualified',
		});
		expect((await deliver(harness, first, signedHeaders(first, secret))).runs).toHaveLength(1);
		const again = await deliver(harness, reordered, signedHeaders(reordered, secret));
		expect([again.statusCode, again.runs]).toEqual([200, []]);
	});

	it('two different events about one lead in the same millisecond start two runs', async () => {
		const harness = await activeTrigger(triggerParameters({ events: ['*'] }));
		const secret = storedSecret(harness);
		const timestamp = T0;
		// A lead scored twice by the AI, and a conversation handed over and closed at once.
		const bodies = [
			eventBody('lead.qualified', { id: 'lead_14', score: 70, status: 'qualified' }, timestamp),
			eventBody('lead.qualified', { id: 'lead_14', score: 92, status: 'qualified' }, timestamp),
			eventBody(
				'conversation.status_changed',
				{ id: 'conv_14', lead_id: 'lead_14', status: 'transferred', previous_status: 'open' },
				timestamp,
			),
			eventBody(
				'conversation.status_changed',
				{ id: 'conv_14', lead_id: 'lead_14', status: 'closed', previous_status: 'transferred' },
				timestamp,
			),
		];

		const runs = [];
		for (const body of bodies) {
			const result = await deliver(harness, body, signedHeaders(body, secret));
			expect(result.statusCode).toBe(200);
			runs.push(...result.runs);
		}

		expect(runs.map((run) => run[0].json)).toEqual(
			bodies.map((body) => {
				const payload = JSON.parse(body) as IDataObject;
				return { ...payload, delivery_key: deliveryKeyDigest(payload) };
			}),
		);
		expect(new Set(runs.map((run) => run[0].json.delivery_key)).size).toBe(4);
		// And each is still one event when the service retries it.
		for (const body of bodies) {
			expect((await deliver(harness, body, signedHeaders(body, secret))).runs).toEqual([]);
		}
	});

	it('events the service sends in one burst about one lead each start one run, retries included', async () => {
		await activeTrigger(triggerParameters({ events: ['*'] }));
		const lead = sandbox.control.createChannelLead({ channel: 'web_form' });
		receiver.loseNextAnswers(2);

		sandbox.control.qualifyLead(lead.id, 70);
		sandbox.control.qualifyLead(lead.id, 92);
		sandbox.control.bookAppointment(lead.id);
		await settled();

		const events = new Map<string, number>();
		for (const delivery of sandbox.control.deliveries()) events.set(delivery.body, 0);
		for (const entry of receiver.received) {
			if (entry.runs.length === 0) continue;
			const { delivery_key: _key, ...payload } = entry.runs[0][0].json;
			const body = JSON.stringify(payload);
			events.set(body, (events.get(body) ?? 0) + entry.runs.length);
		}
		expect(events.size).toBe(4);
		expect([...events.values()]).toEqual([1, 1, 1, 1]);
		expect(sandbox.control.deliveries().filter((delivery) => delivery.attempt > 1).length).toBe(2);
	});

	it('each trigger keeps its own record: two workflows both run for the same event', async () => {
		const manual = triggerParameters({ subscription: 'manual', signingSecret: 's' });
		const credentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
		const first = createTriggerHarness(manual, credentials);
		const second = createTriggerHarness(manual, credentials);
		const body = eventBody('lead.qualified', { id: 'lead_12' }, T0);
		expect((await deliver(first, body, signedHeaders(body, 's'))).runs).toHaveLength(1);
		expect((await deliver(second, body, signedHeaders(body, 's'))).runs).toHaveLength(1);
		expect((await deliver(first, body, signedHeaders(body, 's'))).runs).toEqual([]);
	});
});

describe("the service's retries (scaled schedule) end in exactly one run", () => {
	it('when the answers to the first delivery and to the first two retries are lost on the way back', async () => {
		await activeTrigger();
		const lead = sandbox.control.createChannelLead({ channel: 'web_form' });
		receiver.loseNextAnswers(3);

		sandbox.control.qualifyLead(lead.id, 88);
		await settled();

		const attempts = sandbox.control.deliveries().map((entry) => [entry.attempt, entry.ok]);
		expect(attempts).toEqual([
			[1, false],
			[2, false],
			[3, false],
			[4, true],
		]);
		expect(receiver.received.map((entry) => entry.nodeStatus)).toEqual([200, 200, 200, 200]);
		expect(receiver.runs).toHaveLength(1);
		expect(receiver.runs[0][0].json).toMatchObject({
			event: 'lead.qualified',
			data: { id: lead.id },
		});
	});

	it('when n8n could not be reached at first: the retry that gets through runs once', async () => {
		await activeTrigger();
		const lead = sandbox.control.createChannelLead({ channel: 'chat_app' });
		receiver.refuseNext(2);

		sandbox.control.qualifyLead(lead.id, 81);
		await settled();

		expect(sandbox.control.deliveries().map((entry) => [entry.attempt, entry.status])).toEqual([
			[1, 503],
			[2, 503],
			[3, 200],
		]);
		expect(receiver.runs).toHaveLength(1);
	});
});

describe('conditions checked before a run starts', () => {
	it('run only for lead events that meet them; other events pass', async () => {
		await activeTrigger(
			triggerParameters({
				events: ['lead.qualified', 'appointment.booked'],
				options: { minimumScore: 80, channels: ['chat_app', 'social_a'] },
			}),
		);
		const hot = sandbox.control.createChannelLead({ channel: 'chat_app' });
		const lukewarm = sandbox.control.createChannelLead({ channel: 'chat_app' });
		const otherChannel = sandbox.control.createChannelLead({ channel: 'email' });

		sandbox.control.qualifyLead(hot.id, 85);
		sandbox.control.qualifyLead(lukewarm.id, 60);
		sandbox.control.qualifyLead(otherChannel.id, 95);
		sandbox.control.bookAppointment(lukewarm.id);
		await settled();

		expect(sandbox.control.deliveries().every((entry) => entry.status === 200)).toBe(true);
		// Which lead each run is about: lead events carry it in data.id, appointments in data.lead_id.
		const started = receiver.runs.map((run) => {
			const { event, data } = run[0].json as { event: string; data: IDataObject };
			return `${event} ${String(data.lead_id ?? data.id)}`;
		});
		expect(started.sort()).toEqual([
			`appointment.booked ${lukewarm.id}`,
			`lead.qualified ${hot.id}`,
		]);
	});

	it.each([
		['intent', { intents: ['browsing'] }, { intent: 'purchase_30_days' }, false],
		['intent', { intents: ['purchase_30_days'] }, { intent: 'purchase_30_days' }, true],
		['status', { statuses: ['new', 'in_conversation'] }, { status: 'qualified' }, false],
		['status', { statuses: ['qualified'] }, { status: 'qualified' }, true],
	])('by %s: %j on %j runs: %s', async (_field, conditions, data, runs) => {
		const harness = await activeTrigger(triggerParameters({ options: conditions }));
		const body = eventBody('lead.qualified', {
			id: 'lead_13',
			score: 50,
			channel: 'phone',
			...data,
		});
		const result = await deliver(harness, body, signedHeaders(body, storedSecret(harness)));
		expect(result.statusCode).toBe(200);
		expect(result.runs).toHaveLength(runs ? 1 : 0);
	});
});

describe('Fetch Current Lead', () => {
	it("adds the lead's values of now, read with one GET, next to the event-time ones", async () => {
		await activeTrigger(triggerParameters({ options: { fetchCurrentLead: true } }));
		const lead = sandbox.control.createChannelLead({ channel: 'chat_app' });
		// n8n is unreachable for the first attempt; meanwhile an advisor takes the lead.
		receiver.refuseNext(1);
		sandbox.control.qualifyLead(lead.id, 92);
		const patched = await fetch(`${sandbox.baseUrl}/leads/${lead.id}`, {
			method: 'PATCH',
			headers: { 'X-API-Key': sandbox.keys.full, 'Content-Type': 'application/json' },
			body: JSON.stringify({ assigned_to: 'user_advisor_7', status: 'assigned' }),
		});
		expect(patched.status).toBe(200);
		sandbox.control.clearRequests();
		await settled();

		expect(receiver.runs).toHaveLength(1);
		const json = receiver.runs[0][0].json as { data: IDataObject; current_lead: IDataObject };
		expect(json.data).toMatchObject({ id: lead.id, status: 'qualified' });
		expect(json.current_lead).toMatchObject({
			id: lead.id,
			status: 'assigned',
			assigned_to: 'user_advisor_7',
			score: 92,
		});
		expect(
			sandbox.control.requests().map((request) => `${request.method} ${request.path}`),
		).toEqual([`GET /v1/leads/${lead.id}`]);
	});

	it('leaves the answer to n8n, after the read, and gives up the read after its budget so the answer stays well under 10 s', async () => {
		const harness = await activeTrigger(triggerParameters({ options: { fetchCurrentLead: true } }));
		const lead = sandbox.control
			.state()
			.leads.find((candidate) => candidate.organization_id === 'org_alpha')!;
		const secret = storedSecret(harness);
		sandbox.control.injectFaults({
			kind: 'delay',
			delayMs: 1500,
			method: 'GET',
			pathPrefix: '/v1/leads',
		});
		const slow = eventBody('lead.qualified', { id: lead.id, score: 70 });
		const slowResult = await deliver(harness, slow, signedHeaders(slow, secret));
		expect(slowResult.answeredInWebhook).toBe(false);
		expect(slowResult.statusCode).toBe(200);
		expect(slowResult.runs[0][0].json).toMatchObject({ current_lead: { id: lead.id } });

		sandbox.control.clearFaults();
		sandbox.control.injectFaults({
			kind: 'delay',
			delayMs: FETCH_BUDGET_MS + 2000,
			method: 'GET',
			pathPrefix: '/v1/leads',
		});
		const late = eventBody('lead.qualified', { id: lead.id, score: 71 });
		const startedAt = Date.now();
		const lateResult = await deliver(harness, late, signedHeaders(late, secret));
		const tookMs = Date.now() - startedAt;
		expect(lateResult.statusCode).toBe(200);
		expect(lateResult.runs[0][0].json).toMatchObject({
			current_lead: null,
			current_lead_error: { http_code: null, message: expect.stringContaining('within 5 s') },
		});
		expect(tookMs).toBeGreaterThanOrEqual(FETCH_BUDGET_MS - 50);
		expect(tookMs).toBeLessThan(FETCH_BUDGET_MS + 1500);
	});

	it('fetches the lead an appointment belongs to', async () => {
		const harness = await activeTrigger(
			triggerParameters({
				events: ['appointment.booked'],
				options: { fetchCurrentLead: true, output: 'data' },
			}),
		);
		const lead = sandbox.control
			.state()
			.leads.find((candidate) => candidate.organization_id === 'org_alpha')!;
		const body = eventBody('appointment.booked', { id: 'appt_1', lead_id: lead.id });
		const result = await deliver(harness, body, signedHeaders(body, storedSecret(harness)));
		expect(result.runs[0][0].json).toMatchObject({
			id: 'appt_1',
			lead_id: lead.id,
			current_lead: { id: lead.id, name: lead.name },
		});
	});

	it('still runs once when the lead cannot be read, saying why', async () => {
		const harness = await activeTrigger(triggerParameters({ options: { fetchCurrentLead: true } }));
		const body = eventBody('lead.qualified', { id: 'lead_does_not_exist' });

		const result = await deliver(harness, body, signedHeaders(body, storedSecret(harness)));

		expect(result.statusCode).toBe(200);
		expect(result.runs).toHaveLength(1);
		expect(result.runs[0][0].json).toMatchObject({
			current_lead: null,
			current_lead_error: { http_code: '404' },
		});
		expect(
			harness.logs.some((line) => line.startsWith('warn') && line.includes('lead_does_not_exist')),
		).toBe(true);
	});

	it('does not read anything for a delivery that is refused, filtered or a duplicate', async () => {
		const harness = await activeTrigger(
			triggerParameters({ options: { fetchCurrentLead: true, minimumScore: 50 } }),
		);
		const secret = storedSecret(harness);
		const low = eventBody('lead.qualified', { id: 'lead_14', score: 10 });
		const good = eventBody('lead.qualified', { id: 'lead_15', score: 90 }, T0);
		sandbox.control.clearRequests();

		await deliver(harness, good, { [SIGNATURE]: hmacHex(good, 'wrong') });
		await deliver(harness, low, signedHeaders(low, secret));
		await deliver(harness, good, signedHeaders(good, secret));
		await deliver(harness, good, signedHeaders(good, secret));

		expect(
			sandbox.control.requests().map((request) => `${request.method} ${request.path}`),
		).toEqual(['GET /v1/leads/lead_15']);
	});
});

describe('the signing secret', () => {
	it('never appears in any output item or log line', () => {
		expect(secretsSeen.size).toBeGreaterThan(10);
		expect(outputsSeen.length).toBeGreaterThan(10);
		const outputs = JSON.stringify(outputsSeen);
		const logs = allLogs().join('\n');
		for (const secret of secretsSeen) {
			expect(outputs).not.toContain(secret);
			expect(logs).not.toContain(secret);
		}
	});
});
