import http from 'http';
import type { AddressInfo } from 'net';

import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';

import {
	allLogs,
	createTriggerHarness,
	startTestSandbox,
	type RunningSandbox,
} from '../../harness';
import { eventBody, signedHeaders, storedSecret, triggerParameters } from './fixtures';

const INSTANCE = 'https://n8n.dealer-group.example/';

let sandbox: RunningSandbox;
let credentials: { apiKey: string; baseUrl: string };

beforeAll(async () => {
	sandbox = await startTestSandbox({ retryScale: 0.002 });
	credentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.control.reset();
});

/** Signing secrets still subscribed at the end of each test, and every activation error raised. */
const secretsSeen = new Set<string>();
const errorsSeen: Error[] = [];

afterEach(() => {
	for (const subscription of sandbox.control.state().webhooks) secretsSeen.add(subscription.secret);
});

const webhookCalls = () =>
	sandbox.control
		.requests()
		.filter((request) => request.path.startsWith('/v1/webhooks'))
		.map(
			(request) =>
				`${request.method} ${request.path.replace(/wh_[^/]+/, '{id}')} ${request.status}`,
		);

function trigger(
	parameters = triggerParameters(),
	options: Parameters<typeof createTriggerHarness>[2] = {},
) {
	return createTriggerHarness(parameters, credentials, { webhookBaseUrl: INSTANCE, ...options });
}

/** The workflow's static data as n8n saves it between activations (serialized). */
function asSaved(harness: ReturnType<typeof createTriggerHarness>) {
	return JSON.parse(JSON.stringify(harness.workflowStaticData)) as IDataObject;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
	try {
		await promise;
	} catch (error) {
		errorsSeen.push(error as Error);
		return error as Error;
	}
	throw new Error('expected a rejection');
}

describe('create: subscribing on activation', () => {
	it('POSTs /webhooks with the webhook URL, the events and a description naming the workflow, and stores id, secret, URL and events', async () => {
		const harness = trigger(
			triggerParameters({ events: ['lead.qualified', 'appointment.booked'] }),
			{ workflowName: 'Assign hot leads' },
		);

		await harness.activate();

		const [subscription] = sandbox.control.webhooks();
		expect(sandbox.control.webhooks()).toHaveLength(1);
		expect(subscription.url).toBe(harness.webhookUrl);
		expect(subscription.url).toMatch(
			/^https:\/\/n8n\.dealer-group\.example\/webhook\/.+\/webhook$/,
		);
		expect(subscription.events).toEqual(['lead.qualified', 'appointment.booked']);
		expect(subscription.description).toContain('Assign hot leads');
		expect(harness.staticData).toEqual({
			subscriptionId: subscription.id,
			signingSecret: subscription.secret,
			subscribedUrl: harness.webhookUrl,
			subscribedEvents: ['lead.qualified', 'appointment.booked'],
		});
		expect(webhookCalls()).toEqual(['POST /v1/webhooks 201']);
	});

	it('subscribes to "*" when All Events is chosen, whatever else is chosen or typed', async () => {
		const harness = trigger(
			triggerParameters({ events: ['*', 'lead.created'], otherEvents: 'lead.assigned' }),
		);
		await harness.activate();
		expect(sandbox.control.webhooks()[0].events).toEqual(['*']);
	});

	it('adds typed event names to the chosen ones', async () => {
		const harness = trigger(
			triggerParameters({
				events: ['lead.qualified'],
				otherEvents: 'lead.assigned, conversation.milestone',
			}),
		);
		await harness.activate();
		expect(sandbox.control.webhooks()[0].events).toEqual([
			'lead.qualified',
			'lead.assigned',
			'conversation.milestone',
		]);
	});

	it('refuses to activate without any event, before sending anything', async () => {
		const error = await rejection(
			trigger(triggerParameters({ events: [], otherEvents: ' ' })).activate(),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toContain('Events');
		expect(webhookCalls()).toEqual([]);
	});

	it.each([
		['an http:// address', 'http://n8n.dealer-group.example/'],
		['localhost over http', 'http://localhost:5678/'],
	])(
		'fails activation on %s with a message naming WEBHOOK_URL, a tunnel and N8N_PROXY_HOPS, and sends nothing',
		async (_case, webhookBaseUrl) => {
			const error = await rejection(trigger(triggerParameters(), { webhookBaseUrl }).activate());

			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain('https://');
			expect(error.message).toContain(webhookBaseUrl);
			const { description } = error as NodeOperationError;
			expect(description).toContain('WEBHOOK_URL');
			expect(description).toContain('tunnel');
			expect(description).toContain('N8N_PROXY_HOPS');
			expect(webhookCalls()).toEqual([]);
			expect(sandbox.control.webhooks()).toEqual([]);
		},
	);
});

describe('checkExists', () => {
	it('answers false with nothing stored, without calling the service', async () => {
		expect(await trigger().checkExists()).toBe(false);
		expect(webhookCalls()).toEqual([]);
	});

	it('answers true after one GET when the stored subscription still exists', async () => {
		const harness = trigger();
		await harness.activate();
		sandbox.control.clearRequests();

		expect(await harness.checkExists()).toBe(true);
		expect(webhookCalls()).toEqual(['GET /v1/webhooks/{id} 200']);
	});

	it('subscribes again when the service answers 404 for the stored subscription', async () => {
		const harness = trigger();
		await harness.activate();
		const first = sandbox.control.webhooks()[0];
		await fetch(`${sandbox.baseUrl}/webhooks/${first.id}`, {
			method: 'DELETE',
			headers: { 'X-API-Key': sandbox.keys.full },
		});
		sandbox.control.clearRequests();

		await harness.activate();

		const subscriptions = sandbox.control.webhooks();
		expect(subscriptions).toHaveLength(1);
		expect(subscriptions[0].id).not.toBe(first.id);
		expect(harness.staticData.subscriptionId).toBe(subscriptions[0].id);
		expect(harness.staticData.signingSecret).toBe(subscriptions[0].secret);
		expect(webhookCalls()).toEqual(['GET /v1/webhooks/{id} 404', 'POST /v1/webhooks 201']);
	});

	it.each([405, 501])(
		'trusts what is stored when the service answers %s to the check',
		async (status) => {
			const harness = trigger();
			await harness.activate();
			const stored = { ...harness.staticData };
			sandbox.control.clearRequests();
			sandbox.control.injectFaults({
				kind: 'status',
				status,
				method: 'GET',
				pathPrefix: '/v1/webhooks',
				count: 5,
			});

			await harness.activate();

			expect(webhookCalls()).toEqual([`GET /v1/webhooks/{id} ${status}`]);
			expect(harness.staticData).toEqual(stored);
			expect(sandbox.control.webhooks()).toHaveLength(1);
		},
	);

	it('stops the activation on any other failure of the check rather than subscribe a second time', async () => {
		const harness = trigger();
		await harness.activate();
		sandbox.control.injectFaults({
			kind: 'status',
			status: 403,
			method: 'GET',
			pathPrefix: '/v1/webhooks',
		});

		const error = await rejection(harness.activate());

		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('403');
		expect(sandbox.control.webhooks()).toHaveLength(1);
		expect(webhookCalls().filter((call) => call.startsWith('POST'))).toHaveLength(1);
	});

	it('replaces the subscription when the chosen events changed: the old one is deleted, one new one made', async () => {
		const before = trigger(triggerParameters({ events: ['lead.qualified'] }), {
			webhookId: 'hook-1',
		});
		await before.activate();
		const old = sandbox.control.webhooks()[0];
		sandbox.control.clearRequests();

		const after = trigger(triggerParameters({ events: ['lead.qualified', 'lead.assigned'] }), {
			webhookId: 'hook-1',
			staticData: asSaved(before),
		});
		await after.activate();

		const subscriptions = sandbox.control.webhooks();
		expect(subscriptions).toHaveLength(1);
		expect(subscriptions[0].id).not.toBe(old.id);
		expect(subscriptions[0].events).toEqual(['lead.qualified', 'lead.assigned']);
		expect(subscriptions[0].url).toBe(old.url);
		expect(after.staticData.subscribedEvents).toEqual(['lead.qualified', 'lead.assigned']);
		expect(webhookCalls()).toEqual(['DELETE /v1/webhooks/{id} 204', 'POST /v1/webhooks 201']);
	});

	it('replaces the subscription when the webhook URL changed (for example a new WEBHOOK_URL)', async () => {
		const before = trigger(triggerParameters(), { webhookId: 'hook-2' });
		await before.activate();
		const old = sandbox.control.webhooks()[0];

		const after = trigger(triggerParameters(), {
			webhookId: 'hook-2',
			webhookBaseUrl: 'https://new-address.dealer-group.example/',
			staticData: asSaved(before),
		});
		await after.activate();

		const subscriptions = sandbox.control.webhooks();
		expect(subscriptions).toHaveLength(1);
		expect(subscriptions[0].id).not.toBe(old.id);
		expect(subscriptions[0].url).toBe(
			'https://new-address.dealer-group.example/webhook/hook-2/webhook',
		);
	});

	it('does not subscribe anew when the old subscription cannot be deleted: never two for one trigger', async () => {
		const before = trigger(triggerParameters({ events: ['lead.qualified'] }), {
			webhookId: 'hook-3',
		});
		await before.activate();
		sandbox.control.injectFaults({
			kind: 'status',
			status: 403,
			method: 'DELETE',
			pathPrefix: '/v1/webhooks',
		});

		const after = trigger(triggerParameters({ events: ['lead.created'] }), {
			webhookId: 'hook-3',
			staticData: asSaved(before),
		});
		const error = await rejection(after.activate());

		expect((error as NodeApiError).httpCode).toBe('403');
		expect(sandbox.control.webhooks()).toHaveLength(1);
		expect(sandbox.control.webhooks()[0].events).toEqual(['lead.qualified']);
	});
});

describe('delete: unsubscribing on deactivation', () => {
	it('DELETEs the subscription and clears the static data', async () => {
		const harness = trigger();
		await harness.activate();
		sandbox.control.clearRequests();

		expect(await harness.deactivate()).toBe(true);

		expect(webhookCalls()).toEqual(['DELETE /v1/webhooks/{id} 204']);
		expect(sandbox.control.webhooks()).toEqual([]);
		expect(harness.staticData).toEqual({});
	});

	it('counts a 404 as already gone', async () => {
		const harness = trigger();
		await harness.activate();
		await fetch(`${sandbox.baseUrl}/webhooks/${String(harness.staticData.subscriptionId)}`, {
			method: 'DELETE',
			headers: { 'X-API-Key': sandbox.keys.full },
		});

		expect(await harness.deactivate()).toBe(true);
		expect(harness.staticData).toEqual({});
		expect(harness.logs.filter((line) => line.startsWith('warn'))).toEqual([]);
	});

	it('counts a 405 as already gone', async () => {
		const harness = trigger();
		await harness.activate();
		sandbox.control.injectFaults({
			kind: 'status',
			status: 405,
			method: 'DELETE',
			pathPrefix: '/v1/webhooks',
		});

		expect(await harness.deactivate()).toBe(true);
		expect(harness.staticData).toEqual({});
		expect(harness.logs.filter((line) => line.startsWith('warn'))).toEqual([]);
	});

	it('logs any other failure through n8n, still deactivates, and deletes the leftover before the next subscription', async () => {
		const harness = trigger();
		await harness.activate();
		const leftover = String(harness.staticData.subscriptionId);
		sandbox.control.injectFaults({
			kind: 'status',
			status: 403,
			method: 'DELETE',
			pathPrefix: '/v1/webhooks',
		});

		expect(await harness.deactivate()).toBe(true);

		const warnings = harness.logs.filter((line) => line.startsWith('warn'));
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain(leftover);
		expect(harness.staticData).toEqual({ undeletedSubscriptionIds: [leftover] });

		sandbox.control.clearRequests();
		await harness.activate();

		expect(webhookCalls()).toEqual(['DELETE /v1/webhooks/{id} 204', 'POST /v1/webhooks 201']);
		const subscriptions = sandbox.control.webhooks();
		expect(subscriptions).toHaveLength(1);
		expect(subscriptions[0].id).not.toBe(leftover);
		expect(harness.staticData.undeletedSubscriptionIds).toBeUndefined();
	});
});

describe('Manual subscription', () => {
	const manual = triggerParameters({ subscription: 'manual', signingSecret: 'dashboard-secret-1' });

	it('calls nothing on activation or deactivation', async () => {
		const harness = trigger(manual);
		await harness.activate();
		await harness.deactivate();
		expect(sandbox.control.requests()).toEqual([]);
		expect(harness.staticData).toEqual({});
	});

	it('verifies deliveries with the pasted signing secret', async () => {
		const harness = trigger(manual);
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
		const error = await rejection(
			trigger(triggerParameters({ subscription: 'manual' })).activate(),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toContain('Signing Secret');
		expect(sandbox.control.requests()).toEqual([]);
	});

	it('removes a subscription this node made earlier in Automatic mode', async () => {
		const automatic = trigger(triggerParameters(), { webhookId: 'hook-4' });
		await automatic.activate();

		const switched = trigger(manual, { webhookId: 'hook-4', staticData: asSaved(automatic) });
		await switched.activate();

		expect(sandbox.control.webhooks()).toEqual([]);
		expect(switched.staticData).toEqual({});
	});
});

describe('Signing Secret override', () => {
	it('always wins over the secret the service returned', async () => {
		const harness = trigger(triggerParameters({ signingSecret: 'typed-by-the-user' }));
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
		const harness = trigger(triggerParameters(), { isTest });
		await harness.activate();

		const [subscription] = sandbox.control.webhooks();
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
		expect(sandbox.control.webhooks()).toEqual([]);
	});
});

describe('a service that spells the creation response differently', () => {
	let server: http.Server;
	let creationResponse: Record<string, unknown>;
	const deleted: string[] = [];

	beforeAll(async () => {
		server = http.createServer((request, response) => {
			if (request.method === 'POST') {
				response
					.writeHead(201, { 'Content-Type': 'application/json' })
					.end(JSON.stringify(creationResponse));
			} else {
				deleted.push(`${request.method} ${request.url}`);
				response.writeHead(204).end();
			}
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	});

	afterAll(async () => {
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	const serviceCredentials = () => ({
		apiKey: 'key-of-another-service',
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
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

		const error = await rejection(harness.activate());

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

describe('the signing secret', () => {
	it('never appears in an error message, error description or log line', () => {
		expect(secretsSeen.size).toBeGreaterThan(10);
		expect(errorsSeen.length).toBeGreaterThan(5);
		const errors = JSON.stringify(
			errorsSeen.map((error) => [error.message, (error as NodeOperationError).description]),
		);
		const logs = allLogs().join('\n');
		for (const secret of secretsSeen) {
			expect(errors).not.toContain(secret);
			expect(logs).not.toContain(secret);
		}
	});
});
