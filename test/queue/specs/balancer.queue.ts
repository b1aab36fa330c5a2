import { spawn, type ChildProcess } from 'child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'http';
import { connect, type Socket } from 'net';
import { mkdtempSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import {
	CONFIG_DIR,
	READ_TIMEOUT,
	SERVER_PARAMETERS,
	startBalancer,
	type Balancer,
} from '../../../harness/queue/balancer';
import { ensureNginx } from '../../../harness/queue/system';
import { freePort } from '../../../harness/support/ports';
import { writeSelfSignedCertificate } from '../../../harness/support/tls';
import { post } from '../support/runs';

// nginx with the configuration docs/queue-mode.md shows, in front of two stand-in processes that
// record what reaches them: it ends TLS, alternates, passes the forwarded headers, sends a
// refused request, or one whose connection was not taken within proxy_connect_timeout, on to the
// other process, and answers 504 for a process that does not answer within proxy_read_timeout. The cluster's tests then run n8n behind the same nginx.

interface Backend {
	port: number;
	seen: IncomingHttpHeaders[];
	/** Ms to wait before answering. */
	delayMs: number;
	server: Server;
}

async function startBackend(): Promise<Backend> {
	const port = await freePort();
	const backend: Backend = { port, seen: [], delayMs: 0, server: undefined as unknown as Server };
	backend.server = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			backend.seen.push(req.headers);
			setTimeout(() => res.writeHead(200).end(`backend ${port}`), backend.delayMs);
		});
	});
	await new Promise<void>((resolve) => backend.server.listen(port, '127.0.0.1', resolve));
	return backend;
}

/**
 * A process that takes no connection: it listens with room for one waiting connection, is stopped
 * (SIGSTOP), and that room is filled, so that the kernel drops every new connection attempt, as
 * for a host that is gone or a process whose queue of connections is full.
 */
async function startUnresponsiveBackend(): Promise<{ port: number; close: () => void }> {
	const port = await freePort();
	const child: ChildProcess = spawn(
		process.execPath,
		[
			'-e',
			`require('net').createServer().listen({ port: ${port}, host: '127.0.0.1', backlog: 1 }, () => console.log('up'))`,
		],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	await new Promise<void>((resolve, reject) => {
		child.stdout!.once('data', () => resolve());
		child.once('exit', (code) => reject(new Error(`stand-in process exited (${code})`)));
	});
	process.kill(child.pid!, 'SIGSTOP');
	const waiting: Socket[] = [];
	// Fill the queue: connections that complete are queued; once one does not, the queue is full.
	for (let i = 0; i < 16; i++) {
		const socket = connect({ host: '127.0.0.1', port });
		waiting.push(socket);
		socket.on('error', () => undefined);
		const completed = await new Promise<boolean>((resolve) => {
			socket.once('connect', () => resolve(true));
			setTimeout(() => resolve(false), 300);
		});
		if (!completed) break;
	}
	return {
		port,
		close: () => {
			for (const socket of waiting) socket.destroy();
			child.kill('SIGKILL');
			process.kill(child.pid!, 'SIGCONT');
		},
	};
}

describe('nginx as the balancer (stand-in processes)', () => {
	let balancer: Balancer;
	let backends: Backend[];

	beforeAll(async () => {
		await ensureNginx();
		const workDir = mkdtempSync(join(tmpdir(), 'lc-nginx-'));
		backends = [await startBackend(), await startBackend()];
		balancer = await startBalancer({
			certificate: writeSelfSignedCertificate(workDir),
			port: await freePort(),
			workDir,
			readTimeout: '2s',
		});
		await balancer.setBackends(backends.map((b) => b.port));
	});

	afterAll(async () => {
		await balancer?.close();
		for (const backend of backends ?? []) backend.server.closeAllConnections();
		await Promise.all((backends ?? []).map((b) => new Promise((r) => b.server.close(r))));
	});

	it('ends TLS, alternates between the processes and passes the forwarded headers', async () => {
		balancer.clearLog();
		const answers = [];
		for (let i = 0; i < 10; i++) {
			answers.push(await post(`${balancer.url}webhook/x`, JSON.stringify({ event: i })));
		}
		expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
		expect(balancer.perBackend()).toEqual([5, 5]);
		const headers = backends.flatMap((b) => b.seen);
		expect(headers.map((h) => h['x-forwarded-proto'])).toEqual(Array(10).fill('https'));
		expect(headers.map((h) => h['x-forwarded-for'])).toEqual(Array(10).fill('127.0.0.1'));
		expect(headers.map((h) => h['x-forwarded-host'])).toEqual(Array(10).fill('localhost'));
		// The log tells events apart by their bodies.
		expect(new Set(balancer.log.map((e) => e.bodyKey)).size).toBe(10);
	});

	it('a process that refuses connections: every request answered by the other one', async () => {
		balancer.clearLog();
		backends[1].server.closeAllConnections();
		await new Promise((resolve) => backends[1].server.close(resolve));
		const answers = [];
		for (let i = 0; i < 10; i++) answers.push(await post(`${balancer.url}webhook/y`, `{"n":${i}}`));
		expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
		expect(balancer.perBackend()).toEqual([10, 0]);
		// Refused max_fails (3) times, then left alone for fail_timeout: three requests tried both.
		expect(balancer.log.filter((e) => e.tried.length > 1)).toHaveLength(3);
		await new Promise<void>((resolve) =>
			backends[1].server.listen(backends[1].port, '127.0.0.1', resolve),
		);
	});

	it("a process that takes no connection: after proxy_connect_timeout (2 s) the other one answers, within the service's 10 s", async () => {
		const unresponsive = await startUnresponsiveBackend();
		try {
			await balancer.setBackends([unresponsive.port, backends[0].port]);
			balancer.clearLog();
			const answers = [];
			for (let i = 0; i < 2; i++) {
				const started = Date.now();
				const answer = await post(`${balancer.url}webhook/w`, `{"n":${i}}`);
				answers.push({ status: answer.status, took: Date.now() - started });
			}
			// Round robin: one of the two requests went to the silent process first.
			const failedOver = balancer.log.filter((e) => e.tried.length > 1);
			expect(answers.map((a) => a.status)).toEqual([200, 200]);
			expect(failedOver).toHaveLength(1);
			expect(failedOver[0].backend).toBe(1);
			expect(Math.max(...answers.map((a) => a.took))).toBeGreaterThanOrEqual(1_900);
			expect(Math.max(...answers.map((a) => a.took))).toBeLessThan(5_000);
		} finally {
			unresponsive.close();
			await balancer.setBackends(backends.map((b) => b.port));
		}
	});

	it('a process slower than proxy_read_timeout: 504 from nginx at the timeout', async () => {
		balancer.clearLog();
		for (const backend of backends) backend.delayMs = 5_000;
		const started = Date.now();
		const answer = await post(`${balancer.url}webhook/z`, '{"slow":true}');
		const took = Date.now() - started;
		for (const backend of backends) backend.delayMs = 0;
		// A timeout after the request was sent is not sent again (a POST may have been handled).
		expect(answer.status).toBe(504);
		expect(took).toBeGreaterThanOrEqual(1_900);
		expect(took).toBeLessThan(3_500);
		expect(balancer.log.at(-1)?.tried).toHaveLength(1);
	});
});

/** Lines of an nginx configuration, without comments and indentation. */
const lines = (text: string) =>
	text
		.split('\n')
		.map((line) => line.replace(/#.*/, '').trim())
		.filter(Boolean);

/** The configuration under test, as a user would write `block` of the documentation. */
function asTested(block: string): string[] {
	// The harness fills in loopback addresses, a free port and a self-signed certificate.
	return lines(block)
		.filter((line, i, all) => !(line.startsWith('server ') && all[i - 1]?.startsWith('server ')))
		.map((line) =>
			line
				.replace(/^server [\d.]+:\d+ (.*);$/, (_, parameters: string) =>
					parameters === SERVER_PARAMETERS ? '{{SERVERS}}' : line,
				)
				.replace(/^listen 443 ssl;$/, 'listen 127.0.0.1:{{PORT}} ssl;')
				.replace(/^server_name .*;$/, 'server_name localhost;')
				.replace(/^ssl_certificate .*;$/, 'ssl_certificate {{CERT}};')
				.replace(/^ssl_certificate_key .*;$/, 'ssl_certificate_key {{KEY}};')
				.replace(new RegExp(` ${READ_TIMEOUT};$`), ' {{READ_TIMEOUT}};'),
		);
}

it('the nginx block of docs/queue-mode.md, and any in the README, is the configuration under test', () => {
	const tested = lines(readFileSync(join(CONFIG_DIR, 'webhooks.conf'), 'utf8'));
	const blocks = ['docs/queue-mode.md', 'README.md'].flatMap((file) =>
		[
			...readFileSync(join(__dirname, '../../..', file), 'utf8').matchAll(
				/```nginx\n([\s\S]*?)```/g,
			),
		].map((match) => ({ file, block: match[1] })),
	);
	expect(blocks.filter((b) => b.file === 'docs/queue-mode.md')).toHaveLength(1);
	for (const { block } of blocks) {
		expect(block.match(/^\s*server [\d.]+:\d+ /gm)).toHaveLength(2);
		expect(asTested(block)).toEqual(tested);
	}
});
