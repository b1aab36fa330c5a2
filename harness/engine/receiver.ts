import { startHttpReceiver, type Answer } from '../support/receiver';
import type { DeliveredRequest, DeliveryResult, TriggerHarness } from './trigger';

export interface ReceivedDelivery {
	path: string;
	request: DeliveredRequest;
	result: DeliveryResult;
}

export interface WebhookReceiver {
	/** Loopback address to pass as the trigger harness's `webhookBaseUrl`, e.g. http://127.0.0.1:PORT/ */
	url: string;
	/** Routes requests for the harness's webhook URL to its `deliver`. */
	attach(harness: TriggerHarness): void;
	/** Every request that reached a registered webhook, in arrival order. */
	received: ReceivedDelivery[];
	close(): Promise<void>;
}

/**
 * A loopback stand-in for n8n's webhook endpoint, so the service (the sandbox) can deliver real
 * signed HTTP requests to a trigger under test. The sandbox must be started with
 * `allowHttpWebhooks: true`, since this endpoint speaks plain HTTP.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
	const harnesses: TriggerHarness[] = [];
	const received: ReceivedDelivery[] = [];

	const server = await startHttpReceiver(async ({ path, body, headers, method }) => {
		const harness = harnesses.find((candidate) => new URL(candidate.webhookUrl).pathname === path);
		if (!harness) {
			// n8n's answer for a URL with no active webhook behind it.
			return {
				status: 404,
				body: {
					code: 404,
					message: `The requested webhook "${method} ${path}" is not registered.`,
				},
			};
		}
		const request: DeliveredRequest = { body, headers, method };
		const result = await harness.deliver(request);
		received.push({ path, request, result });
		return n8nAnswer(result);
	});

	return {
		url: server.url,
		attach: (harness) => harnesses.push(harness),
		received,
		close: server.close,
	};
}

/** What n8n sends back to the sender of a webhook request, from what the node answered. */
export function n8nAnswer(result: DeliveryResult): Answer {
	return { status: result.statusCode, body: result.body, headers: result.headers };
}
