import { execFileSync } from 'child_process';
import { createHmac } from 'crypto';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import https from 'https';
import type { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';

import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { TriggerHarness } from '../../harness';

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

export function triggerParameters(overrides: INodeParameters = {}): INodeParameters {
	return { events: ['lead.qualified'], subscription: 'automatic', options: {}, ...overrides };
}

/** The stored signing secret of an activated trigger. */
export function storedSecret(harness: TriggerHarness): string {
	const secret = harness.staticData.signingSecret;
	if (typeof secret !== 'string') throw new Error('the trigger stored no signing secret');
	return secret;
}

/** A self-signed certificate for 127.0.0.1, made once per test file. */
export function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
	const dir = mkdtempSync(join(tmpdir(), 'lc-trigger-tls-'));
	try {
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'ec',
				'-pkeyopt',
				'ec_paramgen_curve:prime256v1',
				'-nodes',
				'-days',
				'1',
				'-subj',
				'/CN=localhost',
				'-addext',
				'subjectAltName=DNS:localhost,IP:127.0.0.1',
				'-keyout',
				join(dir, 'key.pem'),
				'-out',
				join(dir, 'cert.pem'),
			],
			{ stdio: 'ignore' },
		);
		return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
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

	private constructor(private readonly server: https.Server) {}

	static async start(tls: { key: Buffer; cert: Buffer }): Promise<Receiver> {
		let receiver: Receiver | undefined;
		const server = https.createServer(tls, (request, response) => {
			void receiver!.handle(request, response);
		});
		receiver = new Receiver(server);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		return receiver;
	}

	/** n8n's instance address as the trigger must see it: the URL the service delivers to. */
	get baseUrl(): string {
		return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
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
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(
		request: import('http').IncomingMessage,
		response: import('http').ServerResponse,
	) {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const entry: ReceivedDelivery = { path: request.url ?? '', runs: [] };
		this.received.push(entry);

		if (this.toRefuse > 0 || !this.harness) {
			this.toRefuse--;
			entry.answered = 503;
			response.writeHead(503).end();
			return;
		}

		const headers: Record<string, string | string[]> = {};
		for (const [name, value] of Object.entries(request.headers)) {
			if (value !== undefined) headers[name] = value;
		}
		const result = await this.harness.deliver({ body: Buffer.concat(chunks), headers });
		entry.nodeStatus = result.statusCode;
		entry.runs = result.runs;

		if (this.answersToLose > 0) {
			this.answersToLose--;
			request.socket.destroy();
			return;
		}
		entry.answered = result.statusCode;
		const body = typeof result.body === 'string' ? result.body : JSON.stringify(result.body ?? '');
		response.writeHead(result.statusCode, { 'Content-Type': 'text/plain' }).end(body);
	}
}
