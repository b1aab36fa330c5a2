// A loopback HTTPS stand-in for n8n's webhook endpoint. The trigger subscribes only https://
// addresses, so the harness's plain-HTTP receiver cannot be used here. Each request's exact
// bytes and headers go to the trigger harness; the node's answer goes back to the service.

import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import https from 'https';
import type { IncomingMessage, ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';

import type { DeliveryResult, TriggerHarness } from '../../harness';

function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
	const directory = mkdtempSync(join(tmpdir(), 'lc-reliability-tls-'));
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
				'subjectAltName=IP:127.0.0.1',
				'-keyout',
				join(directory, 'key.pem'),
				'-out',
				join(directory, 'cert.pem'),
			],
			{ stdio: 'ignore' },
		);
		return {
			key: readFileSync(join(directory, 'key.pem')),
			cert: readFileSync(join(directory, 'cert.pem')),
		};
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
}

export interface ReceivedRequest {
	body: Buffer;
	headers: IncomingMessage['headers'];
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

	private constructor(private readonly server: https.Server) {}

	static async start(): Promise<HttpsReceiver> {
		let receiver: HttpsReceiver | undefined;
		const server = https.createServer(selfSignedCertificate(), (request, response) => {
			void receiver!.handle(request, response);
		});
		receiver = new HttpsReceiver(server);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		return receiver;
	}

	/** n8n's instance address as the trigger sees it. */
	get baseUrl(): string {
		return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
	}

	attach(harness: TriggerHarness): void {
		this.harness = harness;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const entry: ReceivedRequest = { body: Buffer.concat(chunks), headers: request.headers };
		this.received.push(entry);
		const bytes = entry.body.toString('base64');
		const attempt = (this.attempts.get(bytes) ?? 0) + 1;
		this.attempts.set(bytes, attempt);
		const fault = this.fault(attempt);
		if (!this.harness || fault === 'unreachable') {
			entry.answered = 503;
			response.writeHead(503).end();
			return;
		}
		const headers: Record<string, string | string[]> = {};
		for (const [name, value] of Object.entries(request.headers)) {
			if (value !== undefined) headers[name] = value;
		}
		entry.result = await this.harness.deliver({ body: entry.body, headers });
		if (fault === 'answerLost') {
			request.socket.destroy();
			return;
		}
		entry.answered = entry.result.statusCode;
		const body =
			typeof entry.result.body === 'string'
				? entry.result.body
				: JSON.stringify(entry.result.body ?? '');
		response.writeHead(entry.result.statusCode, { 'Content-Type': 'text/plain' }).end(body);
	}
}
