// Deliveries through the trigger: verification, refusals, events not subscribed to.

import type { IDataObject } from 'n8n-workflow';

import { createTriggerHarness } from '../../../harness/engine';
import { deliveryKeyDigest } from '../../../nodes/shared/events/dedup';
import { seededRandom } from '../../../harness/support/random';
import { T0, useDeliverySetup } from './deliverySetup';
import {
	SIGNATURE,
	eventBody,
	hmacHex,
	signedHeaders,
	storedSecret,
	triggerParameters,
} from './fixtures';
import { mutateSignedDelivery } from './mutations';

const setup = useDeliverySetup();
const { activeTrigger, deliver, settled, subscriptionId } = setup;

describe('a verified delivery', () => {
	it('of a lead qualified in the service starts one run whose item is exactly the delivered payload', async () => {
		await activeTrigger();
		const lead = setup.sandbox.control.createChannelLead({ channel: 'chat_app' });

		setup.sandbox.control.qualifyLead(lead.id, 90);
		await settled();

		const deliveries = setup.sandbox.control.deliveries();
		expect(deliveries).toHaveLength(1);
		expect(deliveries[0]).toMatchObject({
			event: 'lead.qualified',
			attempt: 1,
			status: 200,
			ok: true,
		});
		const payload = JSON.parse(deliveries[0].body) as IDataObject;
		expect(setup.receiver.runs).toEqual([
			[{ json: { ...payload, delivery_key: deliveryKeyDigest(payload) } }],
		]);
		expect(deliveryKeyDigest(payload)).toMatch(/^[0-9a-f]{64}$/);
		expect(setup.receiver.runs[0][0].json).toMatchObject({
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
			apiKey: setup.sandbox.keys.full,
			baseUrl: setup.sandbox.baseUrl,
		});
		const result = await deliver(harness, body, { [SIGNATURE]: hmacHex(body, '') });
		expect(result.statusCode).toBe(401);
		expect(result.runs).toEqual([]);
	});

	it('also when it comes from the service over HTTPS with a wrong signature', async () => {
		const harness = await activeTrigger();
		const genuine = eventBody('lead.qualified', { id: 'lead_3', score: 70 });

		const result = await setup.sandbox.control.deliverRaw(
			subscriptionId(harness),
			genuine.replace('70', '99'),
			{
				[SIGNATURE]: hmacHex(genuine, storedSecret(harness)),
			},
		);

		expect(result).toMatchObject({ status: 401, ok: false });
		expect(setup.receiver.received).toEqual([
			expect.objectContaining({
				path: new URL(harness.webhookUrl).pathname,
				answered: 401,
				result: expect.objectContaining({ statusCode: 401, runs: [] }),
			}),
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

		const result = await setup.sandbox.control.deliverRaw(subscriptionId(harness), body);

		expect(result).toMatchObject({ status: 200, ok: true });
		expect(setup.receiver.received).toHaveLength(1);
		expect(setup.receiver.runs).toEqual([]);
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
			{ apiKey: setup.sandbox.keys.full, baseUrl: setup.sandbox.baseUrl },
		);
		await harness.activate();
		const typed = eventBody('lead.reactivated', { id: 'lead_7' });
		const other = eventBody('lead.created', { id: 'lead_7' });
		expect((await deliver(harness, typed, signedHeaders(typed, 'pasted'))).runs).toHaveLength(1);
		expect((await deliver(harness, other, signedHeaders(other, 'pasted'))).runs).toEqual([]);
	});
});

setup.describeNoSecretLeak();
