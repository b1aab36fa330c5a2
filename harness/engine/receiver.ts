// The one stand-in for n8n's webhook endpoint, used by the trigger tests, the reliability runs and
// the demo script: an HTTPS server on loopback (the service delivers only to https:// addresses)
// that hands each request's exact bytes and headers to the trigger harness whose webhook URL has
// that path, and sends the node's answer back the way n8n would. It can also play the network:
// n8n unreachable (503 before the node runs) or an answer lost after the node ran.

import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import {
	startHttpsReceiver,
	type Answer,
	type LoopbackReceiver,
	type ReceivedRequest,
} from '../support/receiver';
import type { HarnessCredentials } from './credentials';
import { createTriggerHarness, type DeliveryResult, type TriggerHarness } from './trigger';

export interface ReceivedDelivery {
	path: string;
	/** The exact bytes that arrived. */
	body: Buffer;
	headers: Record<string, string | string[]>;
	/** What the node answered; undefined when the request never reached it. */
	result?: DeliveryResult;
	/** What the sender was answered; undefined when the answer was lost on the way back. */
	answered?: number;
}

/** `unreachable`: 503 before the node runs; `answerLost`: the node runs, the socket is cut. */
export type ReceiverFault = 'unreachable' | 'answerLost' | undefined;

export class WebhookReceiver {
	/** Every request, in arrival order. */
	readonly received: ReceivedDelivery[] = [];
	/**
	 * Decides each request's fate; `attempt` counts the requests with the same body bytes (1 for
	 * the first delivery, 2 for its first retry...).
	 */
	fault: (attempt: number) => ReceiverFault = () => undefined;

	private readonly harnesses: TriggerHarness[] = [];
	private readonly attempts = new Map<string, number>();

	constructor(
		private readonly server: LoopbackReceiver,
		private readonly onDelivery?: (delivery: ReceivedDelivery) => void,
	) {}

	/** n8n's instance address, `https://127.0.0.1:PORT/`: the trigger's `webhookBaseUrl`. */
	get url(): string {
		return this.server.url;
	}

	get port(): number {
		return this.server.port;
	}

	/** The items of every run the deliveries started, in arrival order. */
	get runs(): INodeExecutionData[][] {
		return this.received.flatMap((delivery) => delivery.result?.runs ?? []);
	}

	/** Routes requests for the harness's webhook URL to its `deliver`. */
	attach(harness: TriggerHarness): void {
		this.harnesses.push(harness);
	}

	/** A trigger whose webhook URL is on this receiver, attached to it. */
	attachTrigger(parameters: INodeParameters, credentials: HarnessCredentials): TriggerHarness {
		const trigger = createTriggerHarness(parameters, credentials, { webhookBaseUrl: this.url });
		this.attach(trigger);
		return trigger;
	}

	/** The next `count` requests meet `fault`; those after them go through. */
	failNext(fault: Exclude<ReceiverFault, undefined>, count: number): void {
		let left = count;
		this.fault = () => (left-- > 0 ? fault : undefined);
	}

	/** Forgets the triggers, the requests and any fault, as a fresh receiver on the same port. */
	reset(): void {
		this.harnesses.length = 0;
		this.received.length = 0;
		this.attempts.clear();
		this.fault = () => undefined;
	}

	async close(): Promise<void> {
		await this.server.close();
	}

	/** Answers one request the server read. */
	async answer({ path, body, headers, method }: ReceivedRequest): Promise<Answer> {
		const entry: ReceivedDelivery = { path, body, headers };
		this.received.push(entry);
		const fault = this.fault(this.attemptOf(body));
		const harness = this.harnesses.find(
			(candidate) => new URL(candidate.webhookUrl).pathname === path,
		);
		let reply: Answer;
		if (fault === 'unreachable') {
			reply = { status: 503 };
		} else if (!harness) {
			// n8n's answer for a URL with no active webhook behind it.
			const message = `The requested webhook "${method} ${path}" is not registered.`;
			reply = { status: 404, body: { code: 404, message } };
		} else {
			entry.result = await harness.deliver({ body, headers, method });
			reply = fault === 'answerLost' ? 'cutConnection' : n8nAnswer(entry.result);
		}
		if (reply !== 'cutConnection' && reply !== 'noAnswer') entry.answered = reply.status;
		this.onDelivery?.(entry);
		return reply;
	}

	private attemptOf(body: Buffer): number {
		const key = body.toString('base64');
		const attempt = (this.attempts.get(key) ?? 0) + 1;
		this.attempts.set(key, attempt);
		return attempt;
	}
}

/**
 * Starts the stand-in on a free loopback port with a self-signed certificate. `onDelivery` sees
 * each request once it is answered (the demo starts the workflow from it, as n8n does).
 */
export async function startWebhookReceiver(
	options: { onDelivery?: (delivery: ReceivedDelivery) => void } = {},
): Promise<WebhookReceiver> {
	let receiver: WebhookReceiver | undefined;
	const server = await startHttpsReceiver(async (request) => await receiver!.answer(request));
	receiver = new WebhookReceiver(server, options.onDelivery);
	return receiver;
}

/** What n8n sends back to the sender of a webhook request, from what the node answered. */
export function n8nAnswer(result: DeliveryResult): Answer {
	return { status: result.statusCode, body: result.body, headers: result.headers };
}
