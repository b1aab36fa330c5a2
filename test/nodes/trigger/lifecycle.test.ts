// Activation: subscribing, and checking what is stored.

import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { triggerParameters } from './fixtures';
import { REPLACED_SUBSCRIPTION, asSaved, useLifecycleSetup } from './lifecycleSetup';

const setup = useLifecycleSetup();

describe('create: subscribing on activation', () => {
	it('POSTs /webhooks with the webhook URL, the events and a description naming the workflow, and stores id, secret, URL and events', async () => {
		const harness = setup.trigger(
			triggerParameters({ events: ['lead.qualified', 'appointment.booked'] }),
			{ workflowName: 'Assign hot leads' },
		);

		await harness.activate();

		const [subscription] = setup.sandbox.control.webhooks();
		expect(setup.sandbox.control.webhooks()).toHaveLength(1);
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
		expect(setup.webhookCalls()).toEqual(['GET /v1/webhooks 405', 'POST /v1/webhooks 201']);
	});

	it('subscribes to "*" when All Events is chosen, whatever else is chosen or typed', async () => {
		const harness = setup.trigger(
			triggerParameters({ events: ['*', 'lead.created'], otherEvents: 'lead.assigned' }),
		);
		await harness.activate();
		expect(setup.sandbox.control.webhooks()[0].events).toEqual(['*']);
	});

	it('adds typed event names to the chosen ones', async () => {
		const harness = setup.trigger(
			triggerParameters({
				events: ['lead.qualified'],
				otherEvents: 'lead.assigned, conversation.milestone',
			}),
		);
		await harness.activate();
		expect(setup.sandbox.control.webhooks()[0].events).toEqual([
			'lead.qualified',
			'lead.assigned',
			'conversation.milestone',
		]);
	});

	it('refuses to activate without any event, before sending anything', async () => {
		const error = await setup.rejection(
			setup.trigger(triggerParameters({ events: [], otherEvents: ' ' })).activate(),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toContain('Events');
		expect(setup.webhookCalls()).toEqual([]);
	});

	it.each([
		['an http:// address', 'http://n8n.dealer-group.example/'],
		['localhost over http', 'http://localhost:5678/'],
	])(
		'fails activation on %s with a message naming WEBHOOK_URL, a tunnel and N8N_PROXY_HOPS, and sends nothing',
		async (_case, webhookBaseUrl) => {
			const error = await setup.rejection(
				setup.trigger(triggerParameters(), { webhookBaseUrl }).activate(),
			);

			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain('https://');
			expect(error.message).toContain(webhookBaseUrl);
			const { description } = error as NodeOperationError;
			expect(description).toContain('WEBHOOK_URL');
			expect(description).toContain('tunnel');
			expect(description).toContain('N8N_PROXY_HOPS');
			expect(setup.webhookCalls()).toEqual([]);
			expect(setup.sandbox.control.webhooks()).toEqual([]);
		},
	);
});

describe('checkExists', () => {
	it('answers false with nothing stored, without calling the service', async () => {
		expect(await setup.trigger().checkExists()).toBe(false);
		expect(setup.webhookCalls()).toEqual([]);
	});

	it('answers true after one GET when the stored subscription still exists', async () => {
		const harness = setup.trigger();
		await harness.activate();
		setup.sandbox.control.clearRequests();

		expect(await harness.checkExists()).toBe(true);
		expect(setup.webhookCalls()).toEqual(['GET /v1/webhooks/{id} 200']);
	});

	it('subscribes again when the service answers 404 for the stored subscription', async () => {
		const harness = setup.trigger();
		await harness.activate();
		const first = setup.sandbox.control.webhooks()[0];
		await fetch(`${setup.sandbox.baseUrl}/webhooks/${first.id}`, {
			method: 'DELETE',
			headers: { 'X-API-Key': setup.sandbox.keys.full },
		});
		setup.sandbox.control.clearRequests();

		await harness.activate();

		const subscription = setup.newOnlySubscription(first.id);
		expect(harness.staticData.subscriptionId).toBe(subscription.id);
		expect(harness.staticData.signingSecret).toBe(subscription.secret);
		// checkExists only looks; create deletes what is stored, and a 404 there means done.
		expect(setup.webhookCalls()).toEqual([
			'GET /v1/webhooks/{id} 404',
			'DELETE /v1/webhooks/{id} 404',
			'GET /v1/webhooks 405',
			'POST /v1/webhooks 201',
		]);
	});

	it.each([405, 501])(
		'trusts what is stored when the service answers %s to the check',
		async (status) => {
			const harness = setup.trigger();
			await harness.activate();
			const stored = { ...harness.staticData };
			setup.sandbox.control.clearRequests();
			setup.failWebhookCalls('GET', status, 5);

			await harness.activate();

			expect(setup.webhookCalls()).toEqual([`GET /v1/webhooks/{id} ${status}`]);
			expect(harness.staticData).toEqual(stored);
			expect(setup.sandbox.control.webhooks()).toHaveLength(1);
		},
	);

	it('stops the activation on any other failure of the check rather than subscribe a second time', async () => {
		const harness = setup.trigger();
		await harness.activate();
		setup.failWebhookCalls('GET', 403);

		const error = await setup.rejection(harness.activate());

		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('403');
		expect(setup.sandbox.control.webhooks()).toHaveLength(1);
		expect(setup.webhookCalls().filter((call) => call.startsWith('POST'))).toHaveLength(1);
	});

	it('replaces the subscription when the chosen events changed: the old one is deleted, one new one made', async () => {
		const before = setup.trigger(triggerParameters({ events: ['lead.qualified'] }), {
			webhookId: 'hook-1',
		});
		await before.activate();
		const old = setup.sandbox.control.webhooks()[0];
		setup.sandbox.control.clearRequests();

		const after = setup.trigger(
			triggerParameters({ events: ['lead.qualified', 'lead.assigned'] }),
			{
				webhookId: 'hook-1',
				staticData: asSaved(before),
			},
		);
		await after.activate();

		const subscription = setup.newOnlySubscription(old.id);
		expect(subscription.events).toEqual(['lead.qualified', 'lead.assigned']);
		expect(subscription.url).toBe(old.url);
		expect(after.staticData.subscribedEvents).toEqual(['lead.qualified', 'lead.assigned']);
		expect(setup.webhookCalls()).toEqual(REPLACED_SUBSCRIPTION);
	});

	it('replaces the subscription when the webhook URL changed (for example a new WEBHOOK_URL)', async () => {
		const before = setup.trigger(triggerParameters(), { webhookId: 'hook-2' });
		await before.activate();
		const old = setup.sandbox.control.webhooks()[0];

		const after = setup.trigger(triggerParameters(), {
			webhookId: 'hook-2',
			webhookBaseUrl: 'https://new-address.dealer-group.example/',
			staticData: asSaved(before),
		});
		await after.activate();

		const subscription = setup.newOnlySubscription(old.id);
		expect(subscription.url).toBe(
			'https://new-address.dealer-group.example/webhook/hook-2/webhook',
		);
	});

	it('does not subscribe anew when the old subscription cannot be deleted: never two for one trigger', async () => {
		const before = setup.trigger(triggerParameters({ events: ['lead.qualified'] }), {
			webhookId: 'hook-3',
		});
		await before.activate();
		setup.failWebhookCalls('DELETE', 403);

		const after = setup.trigger(triggerParameters({ events: ['lead.created'] }), {
			webhookId: 'hook-3',
			staticData: asSaved(before),
		});
		const error = await setup.rejection(after.activate());

		expect((error as NodeApiError).httpCode).toBe('403');
		expect(setup.sandbox.control.webhooks()).toHaveLength(1);
		expect(setup.sandbox.control.webhooks()[0].events).toEqual(['lead.qualified']);
	});
});

setup.describeNoSecretLeak();
