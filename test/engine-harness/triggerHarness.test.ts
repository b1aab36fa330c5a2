// createTriggerHarness: a trigger's webhook methods and webhook() as n8n calls them.

import { createHash, createHmac } from 'node:crypto';

import { createTriggerHarness, startWebhookReceiver } from '../../harness/engine';
import { credentialsOf, useSandbox } from '../support/useSandbox';
import { testNodeTypes } from './testNodes';

describe('engine harness', () => {
	const ctx = useSandbox({ leads: 5, allowHttpWebhooks: true });

	describe('createTriggerHarness', () => {
		const parameters = { events: 'lead.created' };

		it('gives the node n8n-shaped production and test webhook URLs', () => {
			const production = createTriggerHarness(parameters, credentialsOf(ctx.sandbox), {
				nodeType: 'test.echoTrigger',
				nodeTypes: testNodeTypes,
				webhookId: 'hook-1',
			});
			const test = createTriggerHarness(parameters, credentialsOf(ctx.sandbox), {
				nodeType: 'test.echoTrigger',
				nodeTypes: testNodeTypes,
				webhookId: 'hook-2',
				isTest: true,
				webhookBaseUrl: 'https://automation.example.test',
			});

			expect(production.webhookUrl).toBe('https://n8n.example.test/webhook/hook-1/webhook');
			expect(test.webhookUrl).toBe('https://automation.example.test/webhook-test/hook-2/webhook');
		});

		it('activates like n8n (checkExists, then create), keeps static data, and deactivates', async () => {
			const trigger = createTriggerHarness(parameters, credentialsOf(ctx.sandbox), {
				nodeType: 'test.echoTrigger',
				nodeTypes: testNodeTypes,
				workflowName: 'New leads to CRM',
			});

			await trigger.activate();
			await trigger.activate();

			const [subscription] = ctx.sandbox.control.webhooks();
			expect(ctx.sandbox.control.webhooks()).toHaveLength(1);
			expect(subscription).toMatchObject({
				url: trigger.webhookUrl,
				events: ['lead.created'],
				description: 'New leads to CRM',
			});
			expect(trigger.staticData).toEqual({
				webhookId: subscription.id,
				webhookSecret: subscription.secret,
			});
			expect(
				ctx.sandbox.control.requests().map((request) => [request.method, request.key]),
			).toEqual([['POST', 'full']]);

			await trigger.deactivate();
			expect(ctx.sandbox.control.webhooks()).toEqual([]);
			expect(trigger.staticData).toEqual({});
		});

		it('hands webhook() exactly the delivered bytes and answers like n8n in onReceived mode', async () => {
			const trigger = createTriggerHarness(parameters, credentialsOf(ctx.sandbox), {
				nodeType: 'test.echoTrigger',
				nodeTypes: testNodeTypes,
			});
			await trigger.activate();
			const secret = String(trigger.staticData.webhookSecret);
			const body = Buffer.from('{ "event":"lead.created",  "data": {"name":"José"} }\n', 'utf8');

			const accepted = await trigger.deliver({
				body,
				headers: {
					'Content-Type': 'application/json',
					'X-Service-Signature': createHmac('sha256', secret).update(body).digest('hex'),
				},
			});
			const rejected = await trigger.deliver({
				body,
				headers: { 'content-type': 'application/json', 'x-service-signature': 'not-it' },
			});

			expect(accepted.statusCode).toBe(200);
			// n8n 2.41 evaluates an unset responseData to its default and sends that text.
			expect(accepted.body).toBe('firstEntryJson');
			expect(accepted.answeredInWebhook).toBe(false);
			expect(accepted.runs).toEqual([
				[
					{
						json: {
							body: { event: 'lead.created', data: { name: 'José' } },
							rawSha256: createHash('sha256').update(body).digest('hex'),
						},
					},
				],
			]);
			expect(rejected).toMatchObject({
				statusCode: 401,
				body: 'Unauthorized',
				runs: [],
				noWebhookResponse: true,
			});
		});

		it('receives real deliveries from the service through a loopback receiver', async () => {
			const receiver = await startWebhookReceiver();
			try {
				const trigger = createTriggerHarness(parameters, credentialsOf(ctx.sandbox), {
					nodeType: 'test.echoTrigger',
					nodeTypes: testNodeTypes,
					webhookBaseUrl: receiver.url,
				});
				receiver.attach(trigger);
				await trigger.activate();

				const lead = ctx.sandbox.control.createChannelLead({ name: 'Ana Souza' });
				await ctx.sandbox.control.whenDeliveriesSettled();

				expect(receiver.received).toHaveLength(1);
				const [delivery] = receiver.received;
				expect(delivery.result?.statusCode).toBe(200);
				expect(delivery.answered).toBe(200);
				expect(delivery.result?.runs[0][0].json.body).toMatchObject({
					event: 'lead.created',
					data: { id: lead.id, name: 'Ana Souza' },
				});
				expect(ctx.sandbox.control.deliveries()).toEqual([
					expect.objectContaining({ ok: true, status: 200 }),
				]);
			} finally {
				await receiver.close();
			}
		});
	});
});
