import { apiRequests, jsonOf, run, useSandbox, visibleTrace } from '../helpers';

const context = useSandbox();
const URL = 'https://n8n.example.com/webhook/lead-events';

async function create(parameters: Record<string, unknown> = {}) {
	return await run(context.sandbox, {
		resource: 'webhookSubscription',
		operation: 'create',
		url: URL,
		events: ['lead.qualified', 'appointment.booked'],
		...parameters,
	});
}

describe('Webhook Subscription', () => {
	it('Create subscribes the URL and outputs the record with the signing secret the service returns once', async () => {
		const result = await create({
			additionalFields: { description: 'Webhook node of "Leads"', otherEvents: 'lead.assigned' },
		});
		expect(result.status).toBe('success');
		const [created] = jsonOf(result);
		const [stored] = context.sandbox.control.webhooks();
		expect(created.id).toBe(stored.id);
		expect(created.secret).toBe(stored.secret);
		expect(stored).toMatchObject({
			url: URL,
			events: ['lead.qualified', 'appointment.booked', 'lead.assigned'],
			description: 'Webhook node of "Leads"',
		});
	});

	it('Create with All Events subscribes to "*" only', async () => {
		await create({ events: ['*', 'lead.qualified'] });
		expect(context.sandbox.control.webhooks()[0].events).toEqual(['*']);
	});

	it('Create refuses an http:// URL and an empty event list before sending anything', async () => {
		const http = await create({ url: 'http://n8n.example.com/webhook/x' });
		expect(http.status).toBe('error');
		expect(http.error?.message).toMatch(/^URL must be an https:\/\/ address.*\[item 0\]$/);
		const none = await create({ events: '={{ [] }}' });
		expect(none.error?.message).toMatch(/^Events must name at least one event/);
		expect(apiRequests(context.sandbox, '/v1/webhooks')).toHaveLength(0);
	});

	it('Get returns the record without its secret; Delete removes it, and a second Delete reports it already gone', async () => {
		const [created] = jsonOf(await create());
		const id = created.id as string;

		const got = await run(context.sandbox, {
			resource: 'webhookSubscription',
			operation: 'get',
			subscriptionId: id,
		});
		expect(jsonOf(got)).toEqual([expect.objectContaining({ id, url: URL })]);
		expect(jsonOf(got)[0]).not.toHaveProperty('secret');

		const remove = { resource: 'webhookSubscription', operation: 'delete', subscriptionId: id };
		const deleted = await run(context.sandbox, remove);
		expect(jsonOf(deleted)).toEqual([{ id, deleted: true }]);
		expect(context.sandbox.control.webhooks()).toEqual([]);

		const again = await run(context.sandbox, remove);
		expect(again.status).toBe('success');
		expect(jsonOf(again)).toEqual([{ id, deleted: false, alreadyGone: true }]);
	});

	it('Get of an unknown subscription fails with the service’s status and message, without the API key', async () => {
		const result = await run(context.sandbox, {
			resource: 'webhookSubscription',
			operation: 'get',
			subscriptionId: 'wh_missing',
		});
		expect(result.status).toBe('error');
		expect(result.error?.httpCode).toBe('404');
		expect(visibleTrace(result)).not.toContain(context.sandbox.keys.full);
	});

	it('refuses a subscription ID holding a slash before sending anything', async () => {
		const result = await run(context.sandbox, {
			resource: 'webhookSubscription',
			operation: 'delete',
			subscriptionId: 'wh_1/../leads',
		});
		expect(result.error?.message).toMatch(/Subscription ID/);
		expect(apiRequests(context.sandbox)).toHaveLength(0);
	});
});
