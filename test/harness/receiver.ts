import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

	const server = createServer((req, res) => {
		void handle(req, res).catch((error: unknown) => {
			reply(res, 500, { message: error instanceof Error ? error.message : String(error) });
		});
	});

	async function handle(req: IncomingMessage, res: ServerResponse) {
		const body = await readBody(req);
		const path = new URL(req.url ?? '/', 'http://receiver').pathname;
		const harness = harnesses.find((candidate) => new URL(candidate.webhookUrl).pathname === path);
		if (!harness) {
			// n8n's answer for a URL with no active webhook behind it.
			reply(res, 404, {
				code: 404,
				message: `The requested webhook "${req.method} ${path}" is not registered.`,
			});
			return;
		}
		const request: DeliveredRequest = {
			body,
			headers: req.headers as Record<string, string | string[]>,
			method: req.method,
		};
		const result = await harness.deliver(request);
		received.push({ path, request, result });
		reply(res, result.statusCode, result.body, result.headers);
	}

	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}/`,
		attach: (harness) => harnesses.push(harness),
		received,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

function reply(
	res: ServerResponse,
	statusCode: number,
	body: unknown,
	headers: Record<string, string> = {},
) {
	if (res.headersSent) return;
	for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
	res.statusCode = statusCode;
	if (body === undefined || body === null) {
		res.end();
	} else if (typeof body === 'string' || Buffer.isBuffer(body)) {
		res.end(body);
	} else {
		if (!res.hasHeader('content-type')) res.setHeader('content-type', 'application/json');
		res.end(JSON.stringify(body));
	}
}
