import { spawn, type ChildProcess } from 'child_process';
import { createWriteStream, readFileSync } from 'fs';
import { join } from 'path';

import { freePort } from '../support/ports';
import { httpCall, type HttpResponse } from './http';
import { n8nEnv } from './n8n-cli';
import { n8nBin, nodeBin } from './paths';
import { stopProcessGroup, tail, waitFor } from './processes';
import type { Certificate } from './tls';

export interface N8nServerOptions {
	userFolder: string;
	/** Serve editor, API and webhooks over HTTPS with this certificate. */
	certificate?: Certificate;
	/** Default: a free port. */
	port?: number;
	/** Default: `<protocol>://localhost:<port>/`. */
	webhookUrl?: string;
	env?: Record<string, string>;
	/** How long start-up may take before the test fails (default 90 s). */
	readyTimeoutMs?: number;
}

export interface N8nServer {
	/** e.g. https://localhost:5678 (no trailing slash). */
	url: string;
	port: number;
	webhookUrl: string;
	logFile: string;
	process: ChildProcess;
	log(): string;
	stop(): Promise<void>;
}

/**
 * Starts `n8n start` on the install's Node in its own process group and waits until it answers,
 * its REST and public APIs included.
 */
export async function startN8n(options: N8nServerOptions): Promise<N8nServer> {
	const port = options.port ?? (await freePort());
	const protocol = options.certificate ? 'https' : 'http';
	const url = `${protocol}://localhost:${port}`;
	const webhookUrl = options.webhookUrl ?? `${url}/`;
	const tls: Record<string, string> = options.certificate
		? {
				N8N_PROTOCOL: 'https',
				N8N_SSL_KEY: options.certificate.keyPath,
				N8N_SSL_CERT: options.certificate.certPath,
			}
		: { N8N_PROTOCOL: 'http' };
	const env = n8nEnv(options.userFolder, {
		N8N_PORT: String(port),
		N8N_HOST: 'localhost',
		N8N_WEBHOOK_URL: webhookUrl,
		N8N_EDITOR_BASE_URL: `${url}/`,
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		N8N_SECURE_COOKIE: 'false',
		// `debug` shows what n8n's scheduler does with each poll (a position not stored, for one).
		N8N_LOG_LEVEL: process.env.LC_E2E_N8N_LOG_LEVEL ?? 'info',
		...tls,
		...options.env,
	});

	const logFile = join(options.userFolder, `n8n-start-${port}.log`);
	// Appended: a restart on the same port keeps what the first process logged.
	const logStream = createWriteStream(logFile, { flags: 'a' });
	const child = spawn(nodeBin, [n8nBin, 'start'], {
		cwd: options.userFolder,
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	child.stdout!.pipe(logStream, { end: false });
	child.stderr!.pipe(logStream, { end: false });
	const log = () => readFileSync(logFile, 'utf8');

	const server: N8nServer = {
		url,
		port,
		webhookUrl,
		logFile,
		process: child,
		log,
		async stop() {
			await stopProcessGroup(child, 15_000);
			logStream.end();
		},
	};

	try {
		await waitFor(
			`n8n to answer on ${url}`,
			async () => {
				if (child.exitCode !== null) {
					throw new Error(`n8n exited with ${child.exitCode}:\n${tail(log())}`);
				}
				const res = await httpCall('GET', `${url}/healthz/readiness`, { timeoutMs: 5_000 });
				return res.status === 200 ? true : undefined;
			},
			{ timeoutMs: options.readyTimeoutMs ?? 90_000, intervalMs: 500 },
		);
		// n8n 1.x turns ready before its controllers are mounted: /rest and /api/v1 answer 404 for
		// about 10 s more. 2.x answers at once, so this costs it two requests.
		await waitFor(
			`n8n's REST and public APIs on ${url}`,
			async () => {
				const rest = await httpCall('GET', `${url}/rest/settings`, { timeoutMs: 5_000 });
				const api = await httpCall('GET', `${url}/api/v1/workflows`, { timeoutMs: 5_000 });
				return rest.status !== 404 && api.status !== 404 ? true : undefined;
			},
			{ timeoutMs: 60_000, intervalMs: 500 },
		);
	} catch (error) {
		await server.stop();
		throw new Error(`${(error as Error).message}\n--- n8n log ---\n${tail(log(), 60)}`);
	}
	return server;
}

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export const E2E_OWNER: Owner = {
	email: 'owner@dealership.test',
	password: 'Dealership-e2e-1',
	firstName: 'Dana',
	lastName: 'Owner',
};

/** A signed-in session of n8n's internal REST API (`/rest`), as the editor uses it. */
export class N8nSession {
	private constructor(
		readonly server: N8nServer,
		private readonly cookie: string,
	) {}

	/** Sets the owner up on a fresh instance, or signs in when it already has one. */
	static async signIn(server: N8nServer, owner: Owner = E2E_OWNER): Promise<N8nSession> {
		let res = await httpCall('POST', `${server.url}/rest/owner/setup`, { body: owner });
		if (res.status !== 200) {
			res = await httpCall('POST', `${server.url}/rest/login`, {
				body: { emailOrLdapLoginId: owner.email, password: owner.password },
			});
		}
		if (res.status !== 200) throw new Error(`Cannot sign in: ${res.status} ${res.text}`);
		const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
		const cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
		if (!cookie) throw new Error('n8n set no session cookie');
		return new N8nSession(server, cookie);
	}

	request(method: string, path: string, body?: unknown): Promise<HttpResponse> {
		return this.fetch(method, `/rest${path}`, body);
	}

	/** Any path of the server as the signed-in user (e.g. /types/nodes.json, which n8n 1.x guards). */
	fetch(method: string, path: string, body?: unknown): Promise<HttpResponse> {
		return httpCall(method, `${this.server.url}${path}`, {
			headers: { cookie: this.cookie },
			body,
		});
	}

	/** A public-API key with every scope the instance offers, made the way a person makes one. */
	async createApiKey(label = 'e2e'): Promise<string> {
		const scopes = await this.request('GET', '/api-keys/scopes');
		if (scopes.status !== 200)
			throw new Error(`GET /rest/api-keys/scopes: ${scopes.status} ${scopes.text}`);
		const created = await this.request('POST', '/api-keys', {
			label,
			scopes: scopes.json.data,
			expiresAt: null,
		});
		if (created.status !== 200)
			throw new Error(`POST /rest/api-keys: ${created.status} ${created.text}`);
		const key = created.json.data.rawApiKey ?? created.json.data.apiKey;
		if (typeof key !== 'string') throw new Error(`No API key in ${created.text}`);
		return key;
	}
}

/** n8n's public API (`/api/v1`) with an API key. */
export class N8nPublicApi {
	constructor(
		readonly server: N8nServer,
		private readonly apiKey: string,
	) {}

	request(method: string, path: string, body?: unknown): Promise<HttpResponse> {
		return httpCall(method, `${this.server.url}/api/v1${path}`, {
			headers: { 'X-N8N-API-KEY': this.apiKey },
			body,
		});
	}
}

/** A started n8n, its owner signed in, and its public API with a key made for it. */
export interface N8nWithApi {
	n8n: N8nServer;
	session: N8nSession;
	apiKey: string;
	api: N8nPublicApi;
}

/** Starts n8n, signs its owner in and opens the public API with a new key. */
export async function startN8nWithApi(options: N8nServerOptions): Promise<N8nWithApi> {
	const n8n = await startN8n(options);
	const session = await N8nSession.signIn(n8n);
	const apiKey = await session.createApiKey();
	return { n8n, session, apiKey, api: new N8nPublicApi(n8n, apiKey) };
}
