import { createHash } from 'crypto';
import { readFileSync } from 'fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'http';
import { createServer, type Server } from 'https';
import type { Socket } from 'net';

import type { CertificateFiles } from '../support/tls';

// A small round-robin load balancer in front of n8n's webhook processes, as a user runs one
// (nginx, HAProxy, a cloud balancer): it ends TLS, sends each request to the next process in
// turn, and goes on to the next one when a process refuses the connection (it is restarting).
// For the tests it can also lose answers: the request reaches n8n, which handles it, but the
// caller's connection is cut before the answer arrives, so the service counts a failed delivery
// and retries it later, possibly to the other process.

export interface BalancedRequest {
	at: number;
	/** When the answer came back from the webhook process (or the attempt failed). */
	answeredAt: number;
	path: string;
	/** sha256 of the body: the same event retried has the same one. */
	bodyKey: string;
	/** Index of the webhook process that handled it, or -1 when none could be reached. */
	backend: number;
	status: number;
	/** The answer came but the caller never got it. */
	lost: boolean;
}

export interface BalancerOptions {
	certificate: CertificateFiles;
	port: number;
	/** Loopback ports of the webhook processes. */
	backends: number[];
}

export interface Balancer {
	url: string;
	port: number;
	log: BalancedRequest[];
	setBackends(ports: number[]): void;
	/** While on, the first answer to every distinct body is lost (the service then retries). */
	loseFirstAnswers(on: boolean): void;
	/** How many requests each webhook process handled (by index). */
	perBackend(path?: string): number[];
	clearLog(): void;
	close(): Promise<void>;
}

interface Forwarded {
	status: number;
	headers: IncomingHttpHeaders;
	body: Buffer;
}

function forward(
	port: number,
	method: string,
	path: string,
	headers: IncomingHttpHeaders,
	body: Buffer,
): Promise<Forwarded> {
	return new Promise((resolve, reject) => {
		const upstream = httpRequest(
			{
				host: '127.0.0.1',
				port,
				method,
				path,
				headers: { ...headers, host: `127.0.0.1:${port}`, 'content-length': String(body.length) },
				timeout: 30_000,
				agent: false,
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body: Buffer.concat(chunks),
					}),
				);
				res.on('error', reject);
			},
		);
		upstream.on('timeout', () => upstream.destroy(new Error('upstream timeout')));
		upstream.on('error', reject);
		upstream.end(body);
	});
}

/** Nobody listens there (a process restarting): try the next one. A request cut after it was
 * sent is not sent again (a POST may have been handled): the caller gets 502, as from nginx. */
function isUnreachable(error: unknown): boolean {
	const code = (error as NodeJS.ErrnoException).code;
	return code === 'ECONNREFUSED';
}

export async function startBalancer(options: BalancerOptions): Promise<Balancer> {
	let backends = [...options.backends];
	let next = 0;
	let loseFirst = false;
	const seenBodies = new Set<string>();
	const log: BalancedRequest[] = [];
	const sockets = new Set<Socket>();

	const server: Server = createServer(
		{
			key: readFileSync(options.certificate.keyPath),
			cert: readFileSync(options.certificate.certPath),
		},
		(req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', async () => {
				const body = Buffer.concat(chunks);
				const at = Date.now();
				const path = req.url ?? '/';
				const bodyKey = createHash('sha256').update(body).digest('hex');
				const entry: BalancedRequest = {
					at,
					answeredAt: 0,
					path,
					bodyKey,
					backend: -1,
					status: 0,
					lost: false,
				};
				log.push(entry);
				const first = next;
				next = (next + 1) % Math.max(1, backends.length);
				let forwarded: Forwarded | undefined;
				for (let tried = 0; tried < backends.length && !forwarded; tried++) {
					const index = (first + tried) % backends.length;
					try {
						forwarded = await forward(
							backends[index],
							req.method ?? 'GET',
							path,
							req.headers,
							body,
						);
						entry.backend = index;
					} catch (error) {
						if (!isUnreachable(error)) break;
					}
				}
				entry.answeredAt = Date.now();
				if (!forwarded) {
					entry.status = 502;
					res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
					return;
				}
				entry.status = forwarded.status;
				const isDelivery = req.method === 'POST' && path.startsWith('/webhook/');
				if (loseFirst && isDelivery && !seenBodies.has(bodyKey)) {
					seenBodies.add(bodyKey);
					entry.lost = true;
					req.socket.destroy();
					return;
				}
				seenBodies.add(bodyKey);
				const headers = { ...forwarded.headers };
				delete headers['transfer-encoding'];
				delete headers.connection;
				headers['content-length'] = String(forwarded.body.length);
				res.writeHead(forwarded.status, headers).end(forwarded.body);
			});
		},
	);
	server.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.on('tlsClientError', () => undefined);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, '127.0.0.1', () => resolve());
	});

	return {
		url: `https://localhost:${options.port}/`,
		port: options.port,
		log,
		setBackends(ports) {
			backends = [...ports];
			next = 0;
		},
		loseFirstAnswers(on) {
			loseFirst = on;
			seenBodies.clear();
		},
		perBackend(pathPrefix = '/webhook/') {
			const counts = backends.map(() => 0);
			for (const entry of log) {
				if (entry.backend >= 0 && entry.path.startsWith(pathPrefix)) counts[entry.backend]++;
			}
			return counts;
		},
		clearLog() {
			log.length = 0;
		},
		close() {
			for (const socket of sockets) socket.destroy();
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}
