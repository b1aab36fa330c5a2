import { createHmac } from 'crypto';

import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { n8nAnswer, type TriggerHarness } from '../../../harness/engine';
import {
	startHttpsReceiver,
	type Answer,
	type LoopbackReceiver,
	type ReceivedRequest,
} from '../../../harness/support/receiver';

export const SIGNATURE = 'X-Service-Signature';

export function hmacHex(body: Buffer | string, secret: string): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

/** Headers of a delivery signed the way the service signs. */
export function signedHeaders(body: Buffer | string, secret: string): Record<string, string> {
	return { 'Content-Type': 'application/json', [SIGNATURE]: hmacHex(body, secret) };
}

export function eventBody(
	event: string,
	data: Record<string, unknown>,
	timestamp?: string,
): string {
	return JSON.stringify({
		event,
		timestamp: timestamp ?? new Date().toISOString(),
		organization_id: 'org_alpha',
		data,
	});
}

/** An ISO timestamp `minutes` before now (negative: ahead of now). */
export function minutesAgo(minutes: number, now = Date.now()): string {
	return new Date(now - minutes * 60_000).toISOString();
}

export function triggerParameters(overrides: INodeParameters = {}): INodeParameters {
	return { events: ['lead.qualified'], subscription: 'automatic', options: {}, ...overrides };
}

/** The stored signing secret of an activated trigger. */
export function storedSecret(harness: TriggerHarness): string {
	const secret = harness.staticData.signingSecret;
	if (typeof secret !== 'string') throw new Error('the trigger stored no signing secret');
	return secret;
}

export interface ReceivedDelivery {
	path: string;
	/** What the sender was answered; undefined when the answer was lost on the way back. */
	answered?: number;
	/** The node's status, also when the answer was lost. */
	nodeStatus?: number;
	runs: INodeExecutionData[][];
}

/**
 * Stands in for n8n's HTTPS webhook endpoint: each request's exact bytes and headers go to the
 * trigger harness and the node's answer goes back to the sender. It can also refuse requests
 * before they reach n8n (n8n down) or lose the answer after the node ran (network failure).
 */
export class Receiver {
	readonly received: ReceivedDelivery[] = [];

	private harness?: TriggerHarness;

	private toRefuse = 0;

	private answersToLose = 0;

	private constructor(private readonly server: LoopbackReceiver) {}

	static async start(): Promise<Receiver> {
		let receiver: Receiver | undefined;
		const server = await startHttpsReceiver(async (request) => await receiver!.answer(request));
		receiver = new Receiver(server);
		return receiver;
	}

	/** n8n's instance address as the trigger must see it: the URL the service delivers to. */
	get baseUrl(): string {
		return this.server.url;
	}

	attach(harness: TriggerHarness): void {
		this.harness = harness;
		this.received.length = 0;
		this.toRefuse = 0;
		this.answersToLose = 0;
	}

	refuseNext(count: number): void {
		this.toRefuse = count;
	}

	loseNextAnswers(count: number): void {
		this.answersToLose = count;
	}

	get runs(): INodeExecutionData[][] {
		return this.received.flatMap((delivery) => delivery.runs);
	}

	async close(): Promise<void> {
		await this.server.close();
	}

	private async answer(request: ReceivedRequest): Promise<Answer> {
		const entry: ReceivedDelivery = { path: request.path, runs: [] };
		this.received.push(entry);

		if (this.toRefuse > 0 || !this.harness) {
			this.toRefuse--;
			entry.answered = 503;
			return { status: 503 };
		}

		const result = await this.harness.deliver(request);
		entry.nodeStatus = result.statusCode;
		entry.runs = result.runs;

		if (this.answersToLose > 0) {
			this.answersToLose--;
			return 'cutConnection';
		}
		entry.answered = result.statusCode;
		return n8nAnswer(result);
	}
}
