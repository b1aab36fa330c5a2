import { run, useSandbox, visibleTrace } from '../helpers';

const context = useSandbox();

describe('Webhook Subscription: Get', () => {
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
});
