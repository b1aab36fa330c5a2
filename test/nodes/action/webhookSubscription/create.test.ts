import { apiRequests, jsonOf, useSandbox } from '../helpers';
import { SUBSCRIBED_URL, createSubscription } from './createSubscription';

const context = useSandbox();
const create = (parameters?: Record<string, unknown>, options?: { typeVersion?: number }) =>
	createSubscription(context.sandbox, parameters, options);

describe('Webhook Subscription: Create', () => {
	it('Create subscribes the URL and outputs the record with the signing secret the service returns once', async () => {
		const result = await create({
			otherEvents: 'lead.assigned',
			additionalFields: { description: 'Webhook node of "Leads"' },
		});
		expect(result.status).toBe('success');
		const [created] = jsonOf(result);
		const [stored] = context.sandbox.control.webhooks();
		expect(created.id).toBe(stored.id);
		expect(created.secret).toBe(stored.secret);
		expect(stored).toMatchObject({
			url: SUBSCRIBED_URL,
			events: ['lead.qualified', 'appointment.booked', 'lead.assigned'],
			description: 'Webhook node of "Leads"',
		});
	});

	it('a node saved at version 1 keeps Other Event Names under Additional Fields', async () => {
		const result = await create(
			{ additionalFields: { otherEvents: 'lead.assigned' } },
			{ typeVersion: 1 },
		);
		expect(result.status).toBe('success');
		expect(context.sandbox.control.webhooks()[0].events).toEqual([
			'lead.qualified',
			'appointment.booked',
			'lead.assigned',
		]);
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
});
