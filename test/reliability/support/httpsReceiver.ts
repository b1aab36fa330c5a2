// A loopback HTTPS stand-in for n8n's webhook endpoint. The trigger subscribes only https://
// addresses, so the harness's plain-HTTP receiver cannot be used here. Each request's exact
// bytes and headers go to the trigger harness; the node's answer goes back to the service.

import type { INodeParameters } from 'n8n-workflow';

import {
	createTriggerHarness,
	n8nAnswer,
	type DeliveryResult,
	type HarnessCredentials,
	type TriggerHarness,
} from '../../../harness/engine';
import {
	startHttpsReceiver,
	type Answer,
	type LoopbackReceiver,
	type ReceivedRequest as Request,
} from '../../../harness/support/receiver';

export interface ReceivedRequest {
	body: Buffer;
	headers: Request['headers'];
	/** What the node answered; undefined when the request never reached it. */
	result?: DeliveryResult;
	/** What the service was sent back; undefined when the answer was lost on the way. */
	answered?: number;
}

export type ReceiverFault = 'unreachable' | 'answerLost' | undefined;

export class HttpsReceiver {
	readonly received: ReceivedRequest[] = [];
	private harness?: TriggerHarness;
	private readonly attempts = new Map<string, number>();
	/**
	 * Decides for each request whether n8n is unreachable (503 before the node runs) or the
	 * node's answer is lost after it ran. `attempt` counts requests with the same body bytes.
	 */
	fault: (attempt: number) => ReceiverFault = () => undefined;

	private constructor(private readonly server: LoopbackReceiver) {}

	static async start(): Promise<HttpsReceiver> {
		let receiver: HttpsReceiver | undefined;
		const server = await startHttpsReceiver(async (request) => await receiver!.answer(request));
		receiver = new HttpsReceiver(server);
		return receiver;
	}

	/** n8n's instance address as the trigger sees it. */
	get baseUrl(): string {
		return this.server.url;
	}

	attach(harness: TriggerHarness): void {
		this.harness = harness;
	}

	/** A trigger whose webhook URL is on this receiver, attached to it. */
	attachTrigger(parameters: INodeParameters, credentials: HarnessCredentials): TriggerHarness {
		const trigger = createTriggerHarness(parameters, credentials, { webhookBaseUrl: this.baseUrl });
		this.attach(trigger);
		return trigger;
	}

	async close(): Promise<void> {
		await this.server.close();
	}

	private async answer(request: Request): Promise<Answer> {
		const entry: ReceivedRequest = { body: request.body, headers: request.headers };
		this.received.push(entry);
		const bytes = entry.body.toString('base64');
		const attempt = (this.attempts.get(bytes) ?? 0) + 1;
		this.attempts.set(bytes, attempt);
		const fault = this.fault(attempt);
		if (!this.harness || fault === 'unreachable') {
			entry.answered = 503;
			return { status: 503 };
		}
		entry.result = await this.harness.deliver(request);
		if (fault === 'answerLost') return 'cutConnection';
		entry.answered = entry.result.statusCode;
		return n8nAnswer(entry.result);
	}
}
