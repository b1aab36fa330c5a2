import { run } from '../helpers';
import type { RunningSandbox } from '../../../../harness/engine';

/** The address the tests subscribe. */
export const SUBSCRIBED_URL = 'https://n8n.example.com/webhook/lead-events';

/** Webhook Subscription → Create for two events, with any parameter replaced. */
export async function createSubscription(
	sandbox: RunningSandbox,
	parameters: Record<string, unknown> = {},
	options: { typeVersion?: number } = {},
) {
	return await run(
		sandbox,
		{
			resource: 'webhookSubscription',
			operation: 'create',
			url: SUBSCRIBED_URL,
			events: ['lead.qualified', 'appointment.booked'],
			...parameters,
		},
		options,
	);
}
