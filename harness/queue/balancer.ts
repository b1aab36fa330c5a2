import { spawn, type ChildProcess } from 'child_process';
import { createHash } from 'crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'fs';
import { connect } from 'net';
import { join } from 'path';

import { stopProcessGroup, waitFor } from '../real-n8n/processes';
import type { CertificateFiles } from '../support/tls';

// nginx from Debian as the balancer in front of n8n's webhook processes, with the configuration
// users get (nginx/webhooks.conf): TLS ended, round robin, forwarded headers, a refused connection
// sent on to the other process. It runs in the foreground of a child process of ours, with its
// own prefix in a scratch folder, and is stopped by its PID. Its access log tells the tests where
// each request went.

export const CONFIG_DIR = join(__dirname, 'nginx');
/** Passive health checks of each webhook process, as docs/queue-mode.md shows them. */
export const SERVER_PARAMETERS = 'max_fails=3 fail_timeout=10s';
/** proxy_read_timeout and proxy_send_timeout: under the service's 10 s. */
export const READ_TIMEOUT = '60s';

export interface BalancedRequest {
	/** When the request came in, and when its answer went out. */
	at: number;
	answeredAt: number;
	path: string;
	/** sha256 of the body: the same event retried has the same one. */
	bodyKey: string;
	/** Index of the webhook process that answered, or -1 when none could be reached. */
	backend: number;
	/** What the caller got: n8n's status, or nginx's own (502, 504). */
	status: number;
	/** Processes tried, in order (more than one when a connection was refused). */
	tried: number[];
	forwardedFor: string;
}

export interface BalancerOptions {
	certificate: CertificateFiles;
	port: number;
	/** Scratch folder for nginx's prefix: configuration, pid file, logs. */
	workDir: string;
	/** proxy_read_timeout / proxy_send_timeout, nginx's syntax ("8s"). */
	readTimeout?: string;
}

export interface Balancer {
	url: string;
	port: number;
	pid?: number;
	/** Requests answered since the last `clearLog`. */
	readonly log: BalancedRequest[];
	/**
	 * Starts nginx over these loopback ports, or reloads it (SIGHUP) with them; `readTimeout` and
	 * `serverParameters` replace the configuration's for measurements of other settings.
	 */
	setBackends(ports: number[], readTimeout?: string, serverParameters?: string): Promise<void>;
	/** How many requests each webhook process answered (by index). */
	perBackend(path?: string): number[];
	clearLog(): void;
	close(): Promise<void>;
}

/** The configuration of this repository, with `{{NAME}}` filled in. */
function render(file: string, values: Record<string, string>): string {
	return readFileSync(join(CONFIG_DIR, file), 'utf8').replace(/\{\{(\w+)\}\}/g, (_, name) => {
		if (!(name in values)) throw new Error(`${file}: no value for {{${name}}}`);
		return values[name];
	});
}

export function nginxBin(): string | undefined {
	return ['/usr/sbin/nginx', '/usr/local/sbin/nginx'].find((path) => existsSync(path));
}

function accepts(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect({ host: '127.0.0.1', port });
		socket.once('connect', () => (socket.destroy(), resolve(true)));
		socket.once('error', () => resolve(false));
	});
}

export async function startBalancer(options: BalancerOptions): Promise<Balancer> {
	const binary = nginxBin();
	if (!binary) throw new Error('nginx is not installed (apt-get install nginx)');
	const prefix = join(options.workDir, 'nginx');
	for (const dir of ['', 'body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
		mkdirSync(join(prefix, dir), { recursive: true });
	}
	const accessLog = join(prefix, 'access.log');
	let backends: number[] = [];
	let child: ChildProcess | undefined;
	let logFrom = 0;

	const writeConfig = (readTimeout: string, serverParameters: string) => {
		writeFileSync(join(prefix, 'nginx.conf'), render('nginx.conf', { PREFIX: prefix }));
		const servers = backends
			.map((port) => `server 127.0.0.1:${port} ${serverParameters};`)
			.join('\n    ');
		writeFileSync(
			join(prefix, 'webhooks.conf'),
			render('webhooks.conf', {
				SERVERS: servers,
				PORT: String(options.port),
				CERT: options.certificate.certPath,
				KEY: options.certificate.keyPath,
				READ_TIMEOUT: readTimeout,
			}),
		);
	};
	const entries = (): BalancedRequest[] => {
		if (!existsSync(accessLog)) return [];
		const text = readFileSync(accessLog).subarray(logFrom).toString('utf8');
		return text
			.split('\n')
			.filter(Boolean)
			.map((line) => {
				const raw = JSON.parse(line) as Record<string, string | number>;
				const tried = String(raw.upstream)
					.split(/[,:]\s*/)
					.map(Number)
					.filter((n) => backends.includes(n))
					.map((port) => backends.indexOf(port));
				const answeredAt = Math.round(Number(raw.at) * 1000);
				return {
					at: answeredAt - Math.round(Number(raw.took) * 1000),
					answeredAt,
					path: String(raw.path),
					bodyKey: createHash('sha256').update(String(raw.body), 'utf8').digest('hex'),
					backend: String(raw.upstreamStatus).match(/\d+$/) ? (tried.at(-1) ?? -1) : -1,
					status: Number(raw.status),
					tried,
					forwardedFor: String(raw.forwardedFor),
				};
			});
	};

	const balancer: Balancer = {
		url: `https://localhost:${options.port}/`,
		port: options.port,
		get log() {
			return entries();
		},
		async setBackends(
			ports,
			readTimeout = options.readTimeout ?? READ_TIMEOUT,
			serverParameters = SERVER_PARAMETERS,
		) {
			backends = [...ports];
			writeConfig(readTimeout, serverParameters);
			if (child && child.exitCode === null) {
				const before = readFileSync(join(prefix, 'nginx.pid'), 'utf8');
				child.kill('SIGHUP');
				// The master answers SIGHUP by starting new workers; give them a moment.
				await new Promise((resolve) => setTimeout(resolve, 300));
				if (child.exitCode !== null) throw new Error(`nginx exited on reload: ${before}`);
				return;
			}
			const conf = join(prefix, 'nginx.conf');
			child = spawn(binary, ['-p', prefix, '-c', conf, '-e', join(prefix, 'error.log')], {
				detached: true,
				stdio: 'ignore',
			});
			balancer.pid = child.pid;
			await waitFor(
				`nginx on port ${options.port}`,
				async () => {
					if (child!.exitCode !== null) {
						const errors = existsSync(join(prefix, 'error.log'))
							? readFileSync(join(prefix, 'error.log'), 'utf8')
							: '';
						throw new Error(`nginx exited with ${child!.exitCode}: ${errors}`);
					}
					return (await accepts(options.port)) ? true : undefined;
				},
				{ timeoutMs: 20_000, intervalMs: 100 },
			);
		},
		perBackend(pathPrefix = '/webhook/') {
			const counts = backends.map(() => 0);
			for (const entry of entries()) {
				if (entry.backend >= 0 && entry.path.startsWith(pathPrefix)) counts[entry.backend]++;
			}
			return counts;
		},
		clearLog() {
			logFrom = existsSync(accessLog) ? statSync(accessLog).size : 0;
		},
		async close() {
			if (child && child.exitCode === null) await stopProcessGroup(child, 5_000);
		},
	};
	return balancer;
}
