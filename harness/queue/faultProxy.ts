import { createHash } from 'crypto';
import { readFileSync } from 'fs';
import { request as httpsRequest } from 'https';
import { createServer, type Server } from 'https';
import type { Socket } from 'net';

import type { CertificateFiles } from '../support/tls';

// A fault proxy in front of the balancer, for the scenarios that must lose answers on purpose:
// while on, the first answer to every distinct delivery body is cut (n8n handled the request,
// the service never sees the 200 and sends the event again later). Off, it passes every request
// and answer through unchanged. It does nothing else: TLS, round robin and retries are nginx's.

export interface FaultProxy {
	url: string;
	port: number;
	loseFirstAnswers(on: boolean): void;
	close(): Promise<void>;
}

export async function startFaultProxy(options: {
	certificate: CertificateFiles;
	port: number;
	/** The balancer's port (TLS on loopback). */
	target: number;
}): Promise<FaultProxy> {
	let loseFirst = false;
	const seen = new Set<string>();
	const sockets = new Set<Socket>();
	const server: Server = createServer(
		{
			key: readFileSync(options.certificate.keyPath),
			cert: readFileSync(options.certificate.certPath),
		},
		(req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const body = Buffer.concat(chunks);
				const key = createHash('sha256').update(body).digest('hex');
				const upstream = httpsRequest(
					{
						host: '127.0.0.1',
						port: options.target,
						servername: 'localhost',
						rejectUnauthorized: false,
						method: req.method,
						path: req.url,
						headers: { ...req.headers, 'content-length': String(body.length) },
						agent: false,
					},
					(answer) => {
						const lose = loseFirst && req.method === 'POST' && !seen.has(key);
						seen.add(key);
						if (lose) {
							answer.resume();
							answer.on('end', () => req.socket.destroy());
							return;
						}
						res.writeHead(answer.statusCode ?? 502, answer.headers);
						answer.pipe(res);
					},
				);
				upstream.on('error', () => req.socket.destroy());
				upstream.end(body);
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
		loseFirstAnswers(on) {
			loseFirst = on;
			seen.clear();
		},
		close() {
			for (const socket of sockets) socket.destroy();
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}
