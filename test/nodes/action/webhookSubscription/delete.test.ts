import { apiRequests, jsonOf, run, useSandbox } from '../helpers';
import { SUBSCRIBED_URL, createSubscription } from './createSubscription';

const context = useSandbox();
const create = (parameters?: Record<string, unknown>) =>
	createSubscription(context.sandbox, parameters);

describe('Webhook Subscription: Delete', () => {
	it('Get returns the record without its secret; Delete removes it, and a second Delete reports it already gone', async () => {
		const [created] = jsonOf(await create());
		const id = created.id as string;

		const got = await run(context.sandbox, {
			resource: 'webhookSubscription',
			operation: 'get',
			subscriptionId: id,
		});
		expect(jsonOf(got)).toEqual([expect.objectContaining({ id, url: SUBSCRIBED_URL })]);
		expect(jsonOf(got)[0]).not.toHaveProperty('secret');

		const remove = { resource: 'webhookSubscription', operation: 'delete', subscriptionId: id };
		const deleted = await run(context.sandbox, remove);
		expect(jsonOf(deleted)).toEqual([{ id, deleted: true }]);
		expect(context.sandbox.control.webhooks()).toEqual([]);

		const again = await run(context.sandbox, remove);
		expect(again.status).toBe('success');
		expect(jsonOf(again)).toEqual([{ id, deleted: false, alreadyGone: true }]);
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
