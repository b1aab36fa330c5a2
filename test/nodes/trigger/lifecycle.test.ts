import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';

import {
	allLogs,
	createTriggerHarness,
	startTestSandbox,
	type RunningSandbox,
	type TriggerHarness,
} from '../../../harness/engine';
import { startHttpReceiver, type LoopbackReceiver } from '../../../harness/support/receiver';
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

/** The calls of a trigger that deletes its old subscription and subscribes anew. */
const REPLACED_SUBSCRIPTION = [
	'DELETE /v1/webhooks/{id} 204',
	'GET /v1/webhooks 405',
	'POST /v1/webhooks 201',
];

/** The service answers the next `count` (default 1) `method` calls to /v1/webhooks with `status`. */
function failWebhookCalls(method: 'GET' | 'DELETE', status: number, count?: number) {
	sandbox.control.injectFaults({
		kind: 'status',
		status,
		method,
		pathPrefix: '/v1/webhooks',
		count,
	});
}

/** The service's only subscription, which must be another than the one it replaced. */
function newOnlySubscription(replacedId: string) {
	const subscriptions = sandbox.control.webhooks();
	expect(subscriptions).toHaveLength(1);
	expect(subscriptions[0].id).not.toBe(replacedId);
	return subscriptions[0];
}

/** The warnings n8n's loggers got from the trigger. */
const warningsOf = (harness: TriggerHarness) =>
	harness.logs.filter((line) => line.startsWith('warn'));

function trigger(
	parameters = triggerParameters(),
	options: Parameters<typeof createTriggerHarness>[2] = {},
) {
	return createTriggerHarness(parameters, credentials, { webhookBaseUrl: INSTANCE, ...options });
}

/** The workflow's static data as n8n saves it between activations (serialized). */
function asSaved(harness: TriggerHarness) {
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
		// The sandbox cannot list subscriptions (405), so nothing is looked for at the URL.
		expect(webhookCalls()).toEqual(['GET /v1/webhooks 405', 'POST /v1/webhooks 201']);
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

		const subscription = newOnlySubscription(first.id);
		expect(harness.staticData.subscriptionId).toBe(subscription.id);
		expect(harness.staticData.signingSecret).toBe(subscription.secret);
		// checkExists only looks; create deletes what is stored, and a 404 there means done.
		expect(webhookCalls()).toEqual([
			'GET /v1/webhooks/{id} 404',
			'DELETE /v1/webhooks/{id} 404',
			'GET /v1/webhooks 405',
			'POST /v1/webhooks 201',
		]);
	});

	it.each([405, 501])(
		'trusts what is stored when the service answers %s to the check',
		async (status) => {
			const harness = trigger();
			await harness.activate();
			const stored = { ...harness.staticData };
			sandbox.control.clearRequests();
			failWebhookCalls('GET', status, 5);

			await harness.activate();

			expect(webhookCalls()).toEqual([`GET /v1/webhooks/{id} ${status}`]);
			expect(harness.staticData).toEqual(stored);
			expect(sandbox.control.webhooks()).toHaveLength(1);
		},
	);

	it('stops the activation on any other failure of the check rather than subscribe a second time', async () => {
		const harness = trigger();
		await harness.activate();
		failWebhookCalls('GET', 403);

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

		const subscription = newOnlySubscription(old.id);
		expect(subscription.events).toEqual(['lead.qualified', 'lead.assigned']);
		expect(subscription.url).toBe(old.url);
		expect(after.staticData.subscribedEvents).toEqual(['lead.qualified', 'lead.assigned']);
		expect(webhookCalls()).toEqual(REPLACED_SUBSCRIPTION);
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

		const subscription = newOnlySubscription(old.id);
		expect(subscription.url).toBe(
			'https://new-address.dealer-group.example/webhook/hook-2/webhook',
		);
	});

	it('does not subscribe anew when the old subscription cannot be deleted: never two for one trigger', async () => {
		const before = trigger(triggerParameters({ events: ['lead.qualified'] }), {
			webhookId: 'hook-3',
		});
		await before.activate();
		failWebhookCalls('DELETE', 403);

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

	it.each<[number, (harness: TriggerHarness) => Promise<unknown> | void]>([
		[
			404,
			(harness) =>
				fetch(`${sandbox.baseUrl}/webhooks/${String(harness.staticData.subscriptionId)}`, {
					method: 'DELETE',
					headers: { 'X-API-Key': sandbox.keys.full },
				}),
		],
		[405, () => failWebhookCalls('DELETE', 405)],
	])('counts a %s as already gone', async (_status, makeTheServiceAnswerIt) => {
		const harness = trigger();
		await harness.activate();
		await makeTheServiceAnswerIt(harness);

		expect(await harness.deactivate()).toBe(true);
		expect(harness.staticData).toEqual({});
		expect(warningsOf(harness)).toEqual([]);
	});

	it('logs any other failure through n8n, still deactivates, and deletes the leftover before the next subscription', async () => {
		const harness = trigger();
		await harness.activate();
		const leftover = String(harness.staticData.subscriptionId);
		failWebhookCalls('DELETE', 403);

		expect(await harness.deactivate()).toBe(true);

		const warnings = warningsOf(harness);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain(leftover);
		expect(harness.staticData).toEqual({ undeletedSubscriptionIds: [leftover] });

		sandbox.control.clearRequests();
		await harness.activate();

		expect(webhookCalls()).toEqual(REPLACED_SUBSCRIPTION);
		newOnlySubscription(leftover);
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

/** What n8n shows a trigger whose workflow lost its static data: an empty record. */
function loseStaticData(harness: TriggerHarness): void {
	for (const key of Object.keys(harness.staticData)) delete harness.staticData[key];
}

describe("a trigger whose workflow's static data was lost (within one n8n process)", () => {
	it('a trigger whose static data was lost deletes its previous subscription on deactivation, leaving none', async () => {
		const harness = trigger();
		await harness.activate();
		const subscriptionId = String(harness.staticData.subscriptionId);
		loseStaticData(harness);
		sandbox.control.clearRequests();

		expect(await harness.deactivate()).toBe(true);

		expect(webhookCalls()).toEqual(['DELETE /v1/webhooks/{id} 204']);
		expect(sandbox.control.requests()[0].path).toBe(`/v1/webhooks/${subscriptionId}`);
		expect(sandbox.control.webhooks()).toEqual([]);
		expect(harness.staticData).toEqual({});
		expect(warningsOf(harness)).toEqual([]);
	});

	it('takes its subscription over on the next activation: still one subscription, the same secret', async () => {
		const harness = trigger();
		await harness.activate();
		const before = { ...harness.staticData };
		loseStaticData(harness);
		sandbox.control.clearRequests();

		await harness.activate();

		expect(webhookCalls()).toEqual(['GET /v1/webhooks/{id} 200']);
		expect(harness.staticData).toEqual(before);
		expect(sandbox.control.webhooks().map((subscription) => subscription.id)).toEqual([
			before.subscriptionId,
		]);
		expect(harness.logs.some((line) => line.includes('had lost subscription'))).toBe(true);
	});

	it('still verifies deliveries with the secret the static data lost', async () => {
		const harness = trigger();
		await harness.activate();
		const secret = storedSecret(harness);
		loseStaticData(harness);
		const body = eventBody('lead.qualified', { id: 'lead_lost_1', score: 90 });

		const accepted = await harness.deliver({ body, headers: signedHeaders(body, secret) });
		const forged = await harness.deliver({ body, headers: signedHeaders(body, 'guessed') });

		expect([accepted.statusCode, accepted.runs.length]).toEqual([200, 1]);
		expect([forged.statusCode, forged.runs.length]).toEqual([401, 0]);
	});

	it('with other events chosen meanwhile, deletes the remembered subscription before subscribing to them', async () => {
		const harness = trigger(triggerParameters({ events: ['lead.qualified'] }));
		await harness.activate();
		const old = sandbox.control.webhooks()[0];
		loseStaticData(harness);
		harness.node.parameters.events = ['lead.qualified', 'lead.assigned'];
		sandbox.control.clearRequests();

		await harness.activate();

		expect(webhookCalls()).toEqual(REPLACED_SUBSCRIPTION);
		const subscription = newOnlySubscription(old.id);
		expect(subscription.events).toEqual(['lead.qualified', 'lead.assigned']);
	});

	it('still retries a DELETE that failed at deactivation when the record of it was lost', async () => {
		const harness = trigger();
		await harness.activate();
		const leftover = String(harness.staticData.subscriptionId);
		failWebhookCalls('DELETE', 403);
		await harness.deactivate();
		sandbox.control.clearFaults();
		loseStaticData(harness);
		sandbox.control.clearRequests();

		await harness.activate();

		expect(webhookCalls()).toEqual(REPLACED_SUBSCRIPTION);
		newOnlySubscription(leftover);
		expect(harness.staticData.undeletedSubscriptionIds).toBeUndefined();
	});

	it('leaves other triggers alone: each one finds only its own subscription', async () => {
		const first = trigger();
		const second = trigger();
		await first.activate();
		await second.activate();
		const secondId = second.staticData.subscriptionId;
		loseStaticData(first);

		await first.deactivate();

		expect(sandbox.control.webhooks().map((subscription) => subscription.id)).toEqual([secondId]);
		await second.deactivate();
		expect(sandbox.control.webhooks()).toEqual([]);
	});
});

/**
 * The specification shows no way to list subscriptions and the sandbox answers 405, so this
 * corner is played by a small stand-in for a service that can: subscriptions kept in a list,
 * listed as the case asks, deleted by ID, and a second one for one URL refused with 409.
 */
describe('a service that can list its subscriptions', () => {
	interface Subscription {
		id: string;
		url: string;
		events: string[];
		secret: string;
	}
	type Listing = 'array' | 'data' | 'pages' | 405 | 403;

	type ServiceAnswer = { status: number; body?: unknown };

	let service: LoopbackReceiver;
	let subscriptions: Subscription[];
	let listing: Listing;
	let calls: string[];
	let created = 0;

	const listed = () => subscriptions.map(({ id, url, events }) => ({ id, url, events }));

	function list(cursor: string | null): ServiceAnswer {
		if (typeof listing === 'number') {
			return { status: listing, body: { error: 'not_allowed', message: 'No list here' } };
		}
		if (listing === 'array') return { status: 200, body: listed() };
		if (listing === 'data') return { status: 200, body: { data: listed() } };
		const at = Number(cursor ?? 0);
		const hasMore = at + 1 < subscriptions.length;
		return {
			status: 200,
			body: {
				data: listed().slice(at, at + 1),
				pagination: { limit: 1, has_more: hasMore, next_cursor: hasMore ? String(at + 1) : null },
			},
		};
	}

	function answer(method: string, url: URL, body: Buffer): ServiceAnswer {
		const id = url.pathname.match(/^\/v1\/webhooks\/([^/]+)$/)?.[1];
		if (method === 'GET' && url.pathname === '/v1/webhooks') {
			return list(url.searchParams.get('cursor'));
		}
		if (method === 'POST' && url.pathname === '/v1/webhooks') {
			const wanted = JSON.parse(body.toString('utf8')) as Subscription;
			if (subscriptions.some((subscription) => subscription.url === wanted.url)) {
				return {
					status: 409,
					body: { error: 'conflict', message: 'An endpoint with this URL already exists' },
				};
			}
			const subscription = {
				id: `wh_listed_${++created}`,
				url: wanted.url,
				events: wanted.events,
				secret: `listed-secret-${created}-${Math.random().toString(16).slice(2)}`,
			};
			subscriptions.push(subscription);
			secretsSeen.add(subscription.secret);
			return { status: 201, body: subscription };
		}
		if (id !== undefined) {
			const index = subscriptions.findIndex((subscription) => subscription.id === id);
			const status = index === -1 ? 404 : method === 'DELETE' ? 204 : 200;
			if (status === 204) subscriptions.splice(index, 1);
			return { status, body: status === 200 ? listed()[index] : undefined };
		}
		return { status: 404, body: { error: 'not_found', message: 'Not found' } };
	}

	beforeAll(async () => {
		service = await startHttpReceiver((request) => {
			const url = new URL(request.url, 'http://service.example');
			const given = answer(request.method, url, request.body);
			calls.push(`${request.method} ${url.pathname}${url.search} ${given.status}`);
			return given;
		});
	});

	afterAll(async () => {
		await service.close();
	});

	beforeEach(() => {
		subscriptions = [];
		calls = [];
	});

	const listingTrigger = (webhookId: string) =>
		createTriggerHarness(
			triggerParameters(),
			{
				apiKey: 'key-of-a-listing-service',
				baseUrl: `${service.url}v1`,
			},
			{ webhookBaseUrl: INSTANCE, webhookId },
		);

	/**
	 * A trigger activated in an earlier n8n process, whose static data was then lost: the new
	 * process has another memory (here: another workflow object and ID) but the same webhook URL.
	 */
	async function leftBehindByEarlierProcess(webhookId: string): Promise<string> {
		const earlier = listingTrigger(webhookId);
		await earlier.activate();
		return String(earlier.staticData.subscriptionId);
	}

	const otherTriggersSubscription = (): Subscription => ({
		id: 'wh_of_another_trigger',
		url: `${INSTANCE}webhook/another-trigger/webhook`,
		events: ['lead.qualified'],
		secret: 'secret-of-another-trigger',
	});

	it.each<[string, Listing, string[]]>([
		['a bare array', 'array', ['GET /v1/webhooks 200']],
		['{ data: [...] }', 'data', ['GET /v1/webhooks 200']],
		[
			'pages followed by next_cursor',
			'pages',
			['GET /v1/webhooks 200', 'GET /v1/webhooks?cursor=1 200'],
		],
	])(
		'listed as %s: deletes the subscription an earlier process left at its URL, and nothing else, before subscribing',
		async (_case, shape, listCalls) => {
			const leftover = await leftBehindByEarlierProcess(`hook-listed-${shape}`);
			subscriptions.unshift(otherTriggersSubscription());
			listing = shape;
			calls = [];

			const harness = listingTrigger(`hook-listed-${shape}`);
			await harness.activate();

			expect(calls).toEqual([
				...listCalls,
				`DELETE /v1/webhooks/${leftover} 204`,
				'POST /v1/webhooks 201',
			]);
			expect(subscriptions.map((subscription) => [subscription.id, subscription.url])).toEqual([
				['wh_of_another_trigger', `${INSTANCE}webhook/another-trigger/webhook`],
				[harness.staticData.subscriptionId, harness.webhookUrl],
			]);
			expect(warningsOf(harness)).toEqual([]);
		},
	);

	it('a listing refused for another reason (403) is logged, and the trigger still subscribes', async () => {
		listing = 403;
		const harness = listingTrigger('hook-listing-refused');

		await harness.activate();

		expect(calls).toEqual(['GET /v1/webhooks 403', 'POST /v1/webhooks 201']);
		const warnings = warningsOf(harness);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain('could not list');
		expect(harness.staticData.subscriptionId).toBe(subscriptions[0].id);
	});

	it('without a listing, a 409 for the URL fails the activation with what to do in the dashboard', async () => {
		const leftover = await leftBehindByEarlierProcess('hook-conflict');
		listing = 405;
		calls = [];

		const harness = listingTrigger('hook-conflict');
		const error = await rejection(harness.activate());

		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('409');
		expect(error.message).toContain("already has a subscription for this trigger's webhook URL");
		expect(error.message).toContain('An endpoint with this URL already exists');
		expect((error as NodeApiError).description).toContain('Settings, Webhooks');
		expect((error as NodeApiError).description).toContain('Manual');
		expect(calls).toEqual(['GET /v1/webhooks 405', 'POST /v1/webhooks 409']);
		expect(subscriptions.map((subscription) => subscription.id)).toEqual([leftover]);
		expect(harness.staticData).toEqual({});
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
