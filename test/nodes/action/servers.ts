import http from 'http';
import net from 'net';
import type { AddressInfo } from 'net';

export interface ScriptedAnswer {
	status: number;
	body?: string;
	headers?: Record<string, string>;
}

/** A tiny real HTTP service answering from a script, for answers the sandbox never gives. */
export async function startScriptedService(script: ScriptedAnswer[], fallback: ScriptedAnswer) {
	const received: Array<{ method: string; url: string; at: number }> = [];
	const server = http.createServer((req, res) => {
		received.push({ method: req.method ?? 'GET', url: req.url ?? '', at: Date.now() });
		const answer = script.shift() ?? fallback;
		res.writeHead(answer.status, answer.headers ?? {});
		res.end(answer.body ?? '');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** A loopback port nothing listens on (for "connection refused"). */
export async function freePort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}
