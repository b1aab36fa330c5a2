// Deactivation, manual subscriptions, the secret override, test URLs, other response spellings.

import { NodeOperationError } from 'n8n-workflow';

import { createTriggerHarness, type TriggerHarness } from '../../../harness/engine';
import { startHttpReceiver, type LoopbackReceiver } from '../../../harness/support/receiver';
import { eventBody, signedHeaders, storedSecret, triggerParameters } from './fixtures';
import {
	INSTANCE,
	REPLACED_SUBSCRIPTION,
	asSaved,
	warningsOf,
	useLifecycleSetup,
} from './lifecycleSetup';

const setup = useLifecycleSetup();

describe('delete: unsubscribing on deactivation', () => {
	it('DELETEs the subscription and clears the static data', async () => {
		const harness = setup.trigger();
		await harness.activate();
		setup.sandbox.control.clearRequests();

		expect(await harness.deactivate()).toBe(true);

		expect(setup.webhookCalls()).toEqual(['DELETE /v1/webhooks/{id} 204']);
		expect(setup.sandbox.control.webhooks()).toEqual([]);
		expect(harness.staticData).toEqual({});
	});

	it.each<[number, (harness: TriggerHarness) => Promise<unknown> | void]>([
		[
			404,
			(harness) =>
				fetch(`${setup.sandbox.baseUrl}/webhooks/${String(harness.staticData.subscriptionId)}`, {
					method: 'DELETE',
					headers: { 'X-API-Key': setup.sandbox.keys.full },
				}),
		],
		[405, () => setup.failWebhookCalls('DELETE', 405)],
	])('counts a %s as already gone', async (_status, makeTheServiceAnswerIt) => {
		const harness = setup.trigger();
		await harness.activate();
		await makeTheServiceAnswerIt(harness);

		expect(await harness.deactivate()).toBe(true);
		expect(harness.staticData).toEqual({});
		expect(warningsOf(harness)).toEqual([]);
	});

	it('logs any other failure through n8n, still deactivates, and deletes the leftover before the next subscription', async () => {
		const harness = setup.trigger();
		await harness.activate();
		const leftover = String(harness.staticData.subscriptionId);
		setup.failWebhookCalls('DELETE', 403);

		expect(await harness.deactivate()).toBe(true);

		const warnings = warningsOf(harness);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain(leftover);
		expect(harness.staticData).toEqual({ undeletedSubscriptionIds: [leftover] });

		setup.sandbox.control.clearRequests();
		await harness.activate();

		expect(setup.webhookCalls()).toEqual(REPLACED_SUBSCRIPTION);
		setup.newOnlySubscription(leftover);
		expect(harness.staticData.undeletedSubscriptionIds).toBeUndefined();
	});
});

describe('Manual subscription', () => {
	const manual = triggerParameters({ subscription: 'manual', signingSecret: 'dashboard-secret-1' });

	it('calls nothing on activation or deactivation', async () => {
		const harness = setup.trigger(manual);
		await harness.activate();
		await harness.deactivate();
		expect(setup.sandbox.control.requests()).toEqual([]);
		expect(harness.staticData).toEqual({});
	});

	it('verifies deliveries with the pasted signing secret', async () => {
		const harness = setup.trigger(manual);
		await harness.activate();
		const body = eventBody('lead.qualified', { id: 'lead_1', score: 90 });

		const accepted = await harness.deliver({
			body,
			headers: signedHeaders(body, 'dashboard-secret-1'),
		});
		const refused = await harness.deliver({ body, headers: signedHeaders(body, 'another-secret') });

		expect(accepted.statusCode).toBe(200);
		expect(accepted.runs).toHaveLength(1);
		expect(refused.statusCode).toBe(401);
		expect(refused.runs).toEqual([]);
	});

	it('refuses to activate without the signing secret, naming the field', async () => {
		const error = await setup.rejection(
			setup.trigger(triggerParameters({ subscription: 'manual' })).activate(),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toContain('Signing Secret');
		expect(setup.sandbox.control.requests()).toEqual([]);
	});

	it('removes a subscription this node made earlier in Automatic mode', async () => {
		const automatic = setup.trigger(triggerParameters(), { webhookId: 'hook-4' });
		await automatic.activate();

		const switched = setup.trigger(manual, { webhookId: 'hook-4', staticData: asSaved(automatic) });
		await switched.activate();

		expect(setup.sandbox.control.webhooks()).toEqual([]);
		expect(switched.staticData).toEqual({});
	});
});

describe('Signing Secret override', () => {
	it('always wins over the secret the service returned', async () => {
		const harness = setup.trigger(triggerParameters({ signingSecret: 'typed-by-the-user' }));
		await harness.activate();
		const body = eventBody('lead.qualified', { id: 'lead_2', score: 80 });

		const withOverride = await harness.deliver({
			body,
			headers: signedHeaders(body, 'typed-by-the-user'),
		});
		const withReturned = await harness.deliver({
			body,
			headers: signedHeaders(body, storedSecret(harness)),
		});

		expect(withOverride.statusCode).toBe(200);
		expect(withOverride.runs).toHaveLength(1);
		expect(withReturned.statusCode).toBe(401);
	});
});

describe('test URL ("listen for test event") and production URL', () => {
	it.each([
		['production', false, '/webhook/'],
		['test', true, '/webhook-test/'],
	])('the %s URL is subscribed, verified and cleaned up alike', async (_case, isTest, segment) => {
		const harness = setup.trigger(triggerParameters(), { isTest });
		await harness.activate();

		const [subscription] = setup.sandbox.control.webhooks();
		expect(subscription.url).toBe(harness.webhookUrl);
		expect(new URL(subscription.url).pathname.startsWith(segment)).toBe(true);

		const body = eventBody('lead.qualified', { id: 'lead_3', score: 88 });
		const delivery = await harness.deliver({
			body,
			headers: signedHeaders(body, subscription.secret),
		});
		expect(delivery.statusCode).toBe(200);
		expect(delivery.runs).toHaveLength(1);

		await harness.deactivate();
		expect(setup.sandbox.control.webhooks()).toEqual([]);
	});
});

describe('a service that spells the creation response differently', () => {
	let service: LoopbackReceiver;
	let creationResponse: Record<string, unknown>;
	const deleted: string[] = [];

	beforeAll(async () => {
		service = await startHttpReceiver(({ method, url }) => {
			if (method === 'POST') return { status: 201, body: creationResponse };
			// Another way of saying "no list here".
			if (method === 'GET')
				return { status: 404, body: { error: 'not_found', message: 'Not found' } };
			deleted.push(`${method} ${url}`);
			return { status: 204 };
		});
	});

	afterAll(async () => {
		await service.close();
	});

	const serviceCredentials = () => ({
		apiKey: 'key-of-another-service',
		baseUrl: `${service.url}v1`,
	});

	it('reads the secret from signing_secret', async () => {
		creationResponse = { id: 'wh_other_1', signing_secret: 'spelled-differently' };
		const harness = createTriggerHarness(triggerParameters(), serviceCredentials(), {
			webhookBaseUrl: INSTANCE,
		});
		await harness.activate();
		expect(harness.staticData.signingSecret).toBe('spelled-differently');
	});

	it('without any secret: deletes what it created and asks for a manual subscription', async () => {
		creationResponse = { id: 'wh_other_2' };
		deleted.length = 0;
		const harness = createTriggerHarness(triggerParameters(), serviceCredentials(), {
			webhookBaseUrl: INSTANCE,
		});

		const error = await setup.rejection(harness.activate());

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toContain('no signing secret');
		expect((error as NodeOperationError).description).toContain('Manual');
		expect(deleted).toEqual(['DELETE /v1/webhooks/wh_other_2']);
		expect(harness.staticData).toEqual({});
	});

	it('without any secret but with Signing Secret filled: keeps the subscription', async () => {
		creationResponse = { id: 'wh_other_3' };
		const harness = createTriggerHarness(
			triggerParameters({ signingSecret: 'pasted' }),
			serviceCredentials(),
			{ webhookBaseUrl: INSTANCE },
		);
		await harness.activate();
		expect(harness.staticData.subscriptionId).toBe('wh_other_3');
		expect(harness.staticData.signingSecret).toBeUndefined();
	});
});

setup.describeNoSecretLeak();
