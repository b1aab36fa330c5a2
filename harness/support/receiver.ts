// Loopback HTTP and HTTPS servers that stand in for a webhook endpoint (n8n's, or any subscriber
// of the service): each request is read whole and handed to an `answer` function that decides
// what the sender gets back, so each test keeps only its own policy and record.

import http from 'http';
import https from 'https';
import type { AddressInfo } from 'net';

import { selfSignedCertificate, type Certificate } from './tls';

export interface ReceivedRequest {
	method: string;
	/** The path and query as sent. */
	url: string;
	/** The URL path, without the query. */
	path: string;
	/** The exact bytes that arrived. */
	body: Buffer;
	headers: Record<string, string | string[]>;
}

/**
 * What the sender gets back: a status, with a body (strings and buffers as they are, other values
 * as JSON) and headers; or `cutConnection`, the socket closed without an answer (an answer lost
 * on the way back); or `noAnswer`, the request left open until the sender gives up.
 */
export type Answer =
	| { status: number; body?: unknown; headers?: Record<string, string> }
	| 'cutConnection'
	| 'noAnswer';

export type AnswerRequest = (request: ReceivedRequest) => Answer | Promise<Answer>;

export interface LoopbackReceiver {
	/** `http://127.0.0.1:PORT/` or `https://127.0.0.1:PORT/` */
	readonly url: string;
	readonly port: number;
	close(): Promise<void>;
}

export async function startHttpReceiver(answer: AnswerRequest): Promise<LoopbackReceiver> {
	return await listen(http.createServer(listener(answer)), 'http');
}

/** An HTTPS receiver; its certificate is self-signed unless one is given. */
export async function startHttpsReceiver(
	answer: AnswerRequest,
	tls: Certificate = selfSignedCertificate(),
): Promise<LoopbackReceiver> {
	return await listen(https.createServer(tls, listener(answer)), 'https');
}

async function listen(server: http.Server, scheme: 'http' | 'https'): Promise<LoopbackReceiver> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `${scheme}://127.0.0.1:${port}/`,
		port,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

function listener(answer: AnswerRequest): http.RequestListener {
	return (request, response) => {
		void receive(request)
			.then(answer)
			.then(
				(reply) => send(request, response, reply),
				(error: unknown) =>
					send(request, response, {
						status: 500,
						body: { message: error instanceof Error ? error.message : String(error) },
					}),
			);
	};
}

async function receive(request: http.IncomingMessage): Promise<ReceivedRequest> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	const headers: Record<string, string | string[]> = {};
	for (const [name, value] of Object.entries(request.headers)) {
		if (value !== undefined) headers[name] = value;
	}
	const url = request.url ?? '/';
	return {
		method: request.method ?? 'GET',
		url,
		path: new URL(url, 'http://receiver').pathname,
		body: Buffer.concat(chunks),
		headers,
	};
}

function send(request: http.IncomingMessage, response: http.ServerResponse, answer: Answer): void {
	if (answer === 'noAnswer' || response.headersSent) return;
	if (answer === 'cutConnection') {
		request.socket.destroy();
		return;
	}
	for (const [name, value] of Object.entries(answer.headers ?? {})) response.setHeader(name, value);
	response.statusCode = answer.status;
	const { body } = answer;
	if (body === undefined || body === null) {
		response.end();
	} else if (typeof body === 'string' || Buffer.isBuffer(body)) {
		response.end(body);
	} else {
		if (!response.hasHeader('content-type')) response.setHeader('content-type', 'application/json');
		response.end(JSON.stringify(body));
	}
}
