// A service that can list its subscriptions.

import { NodeApiError } from 'n8n-workflow';

import { createTriggerHarness } from '../../../harness/engine';
import { startHttpReceiver, type LoopbackReceiver } from '../../../harness/support/receiver';
import { triggerParameters } from './fixtures';
import { INSTANCE, useLifecycleSetup, warningsOf } from './lifecycleSetup';

const setup = useLifecycleSetup();

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
			setup.noteSecret(subscription.secret);
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
		const error = await setup.rejection(harness.activate());

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

setup.describeNoSecretLeak();
