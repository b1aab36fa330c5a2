// One run per event: duplicates and the service's retries.

import type { IDataObject } from 'n8n-workflow';

import { createTriggerHarness } from '../../../harness/engine';
import { deliveryKeyDigest } from '../../../nodes/shared/events/dedup';
import { credentialsOf } from '../../support/useSandbox';
import { T0, T0_PLUS_5, useDeliverySetup } from './deliverySetup';
import { eventBody, signedHeaders, storedSecret, triggerParameters } from './fixtures';

const setup = useDeliverySetup();
const { activeTrigger, deliver, settled } = setup;

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
		const lead = setup.sandbox.control.createChannelLead({ channel: 'web_form' });
		setup.receiver.failNext('answerLost', 2);

		setup.sandbox.control.qualifyLead(lead.id, 70);
		setup.sandbox.control.qualifyLead(lead.id, 92);
		setup.sandbox.control.bookAppointment(lead.id);
		await settled();

		const events = new Map<string, number>();
		for (const delivery of setup.sandbox.control.deliveries()) events.set(delivery.body, 0);
		for (const entry of setup.receiver.received) {
			const runs = entry.result?.runs ?? [];
			if (runs.length === 0) continue;
			const { delivery_key: _key, ...payload } = runs[0][0].json;
			const body = JSON.stringify(payload);
			events.set(body, (events.get(body) ?? 0) + runs.length);
		}
		expect(events.size).toBe(4);
		expect([...events.values()]).toEqual([1, 1, 1, 1]);
		expect(
			setup.sandbox.control.deliveries().filter((delivery) => delivery.attempt > 1).length,
		).toBe(2);
	});

	it('each trigger keeps its own record: two workflows both run for the same event', async () => {
		const manual = triggerParameters({ subscription: 'manual', signingSecret: 's' });
		const credentials = credentialsOf(setup.sandbox);
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
		const lead = setup.sandbox.control.createChannelLead({ channel: 'web_form' });
		setup.receiver.failNext('answerLost', 3);

		setup.sandbox.control.qualifyLead(lead.id, 88);
		await settled();

		const attempts = setup.sandbox.control.deliveries().map((entry) => [entry.attempt, entry.ok]);
		expect(attempts).toEqual([
			[1, false],
			[2, false],
			[3, false],
			[4, true],
		]);
		expect(setup.receiver.received.map((entry) => entry.result?.statusCode)).toEqual([
			200, 200, 200, 200,
		]);
		expect(setup.receiver.runs).toHaveLength(1);
		expect(setup.receiver.runs[0][0].json).toMatchObject({
			event: 'lead.qualified',
			data: { id: lead.id },
		});
	});

	it('when n8n could not be reached at first: the retry that gets through runs once', async () => {
		await activeTrigger();
		const lead = setup.sandbox.control.createChannelLead({ channel: 'chat_app' });
		setup.receiver.failNext('unreachable', 2);

		setup.sandbox.control.qualifyLead(lead.id, 81);
		await settled();

		expect(
			setup.sandbox.control.deliveries().map((entry) => [entry.attempt, entry.status]),
		).toEqual([
			[1, 503],
			[2, 503],
			[3, 200],
		]);
		expect(setup.receiver.runs).toHaveLength(1);
	});
});

setup.describeNoSecretLeak();
