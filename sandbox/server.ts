import http, { type IncomingMessage, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { MAX_BODY_BYTES, RETRY_AFTER_HEADER } from './constants';
import type { RequestLogEntry } from './contract';
import type { SandboxCore } from './core';
import {
	ApiError,
	forbidden,
	internalError,
	invalidField,
	methodNotAllowed,
	notFound,
	payloadTooLarge,
	rateLimited,
	unauthorized,
	unsupportedMediaType,
} from './errors';
import { isJsonContentType, readBody, writeJson } from './http-util';
import { routes, type RouteResult } from './routes';
import { parseJsonBody } from './validation';

export type ControlHandler = (
	req: IncomingMessage,
	res: ServerResponse,
	method: string,
	path: string,
	url: URL,
) => Promise<void>;

const STATUS_ERROR_CODES: Record<number, string> = {
	400: 'invalid_request',
	401: 'unauthorized',
	403: 'forbidden',
	404: 'not_found',
	409: 'conflict',
	429: 'rate_limited',
	500: 'internal_error',
	502: 'bad_gateway',
	503: 'service_unavailable',
	504: 'gateway_timeout',
};

/**
 * The HTTP front of the sandbox. Order of the checks for /v1 requests:
 * 1. API key (401, not counted by the rate limiter: there is no valid key to count against);
 * 2. rate limit (429; every request with a valid key counts, whatever its outcome);
 * 3. injected faults;
 * 4. account suspended / key scope (403);
 * 5. route (404 / 405), Content-Type (415), body size (413), JSON (400), then the endpoint.
 * Every answer after step 1 carries the key's X-RateLimit-* headers; 401 answers carry those of
 * a fresh window.
 */
export class SandboxServer {
	readonly server: http.Server;
	private readonly timers = new Set<NodeJS.Timeout>();
	private closing?: Promise<void>;

	constructor(
		private readonly core: SandboxCore,
		private readonly control: ControlHandler,
	) {
		this.server = http.createServer((req, res) => {
			this.onRequest(req, res).catch((error) => {
				writeJson(res, 500, { error: 'internal_error', message: String(error?.message ?? error) });
			});
		});
	}

	listen(port: number, host: string): Promise<number> {
		return new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, host, () => {
				this.server.off('error', reject);
				resolve((this.server.address() as AddressInfo).port);
			});
		});
	}

	close(): Promise<void> {
		this.closing ??= new Promise<void>((resolve) => {
			for (const timer of this.timers) clearTimeout(timer);
			this.timers.clear();
			this.server.close(() => resolve());
			// Keep-alive sockets would otherwise hold close() open.
			this.server.closeAllConnections();
		});
		return this.closing;
	}

	private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const at = Date.now();
		// Node's own Date header reads the real clock; every answer carries the service's instead.
		res.sendDate = false;
		res.setHeader('Date', this.core.clock.httpDate());
		const method = (req.method ?? 'GET').toUpperCase();
		const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
		let path = url.pathname;
		if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);

		if (path === '/control' || path.startsWith('/control/')) {
			await this.control(req, res, method, path, url);
			return;
		}

		const core = this.core;
		const entry: RequestLogEntry = {
			method,
			path,
			query: Object.fromEntries(url.searchParams),
			status: 0,
			at,
		};
		core.logRequest(entry);
		let rateHeaders: Record<string, string> = {};
		const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
			entry.status = status;
			// At the answer, not the arrival: a delayed answer is dated when it leaves.
			if (!res.headersSent) res.setHeader('Date', this.core.clock.httpDate());
			writeJson(res, status, body, { ...rateHeaders, ...headers });
		};
		const sendError = (error: ApiError) => send(error.status, error.body, error.headers);

		// 1. Authentication, before anything else.
		const header = req.headers['x-api-key'];
		const key = core.keys.lookup(header);
		if (key) entry.key = key.role;
		if (!key || key.revoked) {
			rateHeaders = core.rateLimiter.peek().headers;
			const why =
				header === undefined || header === ''
					? 'Missing X-API-Key header'
					: key
						? 'API key has been revoked'
						: 'Invalid API key';
			return sendError(unauthorized(why));
		}

		// 2. Rate limit.
		const rate = core.rateLimiter.hit(key.key);
		rateHeaders = rate.headers;
		if (rate.limited) return sendError(rateLimited(rate.retryAfterSeconds));

		// 3. Faults that act before processing.
		const fault = core.faults.take(method, path, url.searchParams.has('cursor'));
		if (fault?.kind === 'drop') {
			req.socket.destroy();
			return;
		}
		if (fault?.kind === 'status') {
			const status = fault.status ?? 500;
			const extra: Record<string, string> =
				status === 429 || status === 503 ? { [RETRY_AFTER_HEADER]: '1' } : {};
			return send(
				status,
				{
					error: STATUS_ERROR_CODES[status] ?? 'error',
					message: `Injected fault: status ${status}`,
				},
				extra,
			);
		}
		if (fault?.kind === 'badCursor') {
			return sendError(invalidField('cursor', 'expired; start the list again without a cursor'));
		}

		// 4. Account and scope.
		const org = core.store.organizations.get(key.organizationId);
		if (!org || org.record.suspended) return sendError(forbidden('The account is suspended'));
		if (key.readOnly && method !== 'GET') {
			return sendError(forbidden('This API key is restricted to read operations'));
		}

		// 5. Route, body, endpoint.
		let result: RouteResult;
		try {
			result = await this.dispatch(req, method, path, url, org.id);
		} catch (error) {
			if (error instanceof ApiError) return sendError(error);
			if ((error as Error)?.message === 'request aborted') return;
			return sendError(internalError(String((error as Error)?.message ?? error)));
		}

		if (fault?.kind === 'dropAfterProcessing') {
			req.socket.destroy();
			return;
		}
		if (fault?.kind === 'delay') {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				send(result.status, result.body);
			}, fault.delayMs ?? 1000);
			this.timers.add(timer);
			return;
		}
		send(result.status, result.body);
	}

	private async dispatch(
		req: IncomingMessage,
		method: string,
		path: string,
		url: URL,
		organizationId: string,
	): Promise<RouteResult> {
		if (!path.startsWith('/v1/')) throw notFound(`No endpoint at ${path}`);
		const subPath = path.slice(3);
		let params: string[] | undefined;
		const allowed: string[] = [];
		let route;
		for (const candidate of routes) {
			const match = candidate.pattern.exec(subPath);
			if (!match) continue;
			allowed.push(candidate.method);
			if (candidate.method === method) {
				route = candidate;
				params = match.slice(1).map(decodeParam);
			}
		}
		if (allowed.length === 0) throw notFound(`No endpoint at ${path}`);
		if (!route || !params) throw methodNotAllowed(allowed);

		let body: unknown;
		if (method === 'POST' || method === 'PATCH') {
			if (!isJsonContentType(req.headers['content-type'])) throw unsupportedMediaType();
			const raw = await readBody(req, MAX_BODY_BYTES);
			if (raw.tooLarge) throw payloadTooLarge(MAX_BODY_BYTES);
			body = parseJsonBody(raw.text);
		}
		const org = this.core.store.org(organizationId);
		return route.handle({ core: this.core, org, params, query: url.searchParams, body });
	}
}

function decodeParam(raw: string): string {
	try {
		return decodeURIComponent(raw);
	} catch {
		return raw;
	}
}
