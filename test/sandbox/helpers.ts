import { createHmac, timingSafeEqual } from 'crypto';

import {
	startSandbox,
	type RunningSandbox,
	type SandboxOptions,
	type StoredLead,
} from '../../sandbox';
import {
	startHttpReceiver,
	startHttpsReceiver,
	type AnswerRequest,
} from '../../harness/support/receiver';
import type { Certificate } from '../../harness/support/tls';

export const LEAD_FIELDS = [
	'assigned_to',
	'channel',
	'created_at',
	'email',
	'id',
	'intent',
	'last_activity_at',
	'name',
	'organization_id',
	'phone',
	'score',
	'status',
	'updated_at',
	'vehicle_interest',
];
export const CONVERSATION_LIST_FIELDS = [
	'channel',
	'created_at',
	'id',
	'last_message_at',
	'lead_id',
	'status',
	'updated_at',
];
export const MESSAGE_FIELDS = [
	'content',
	'conversation_id',
	'created_at',
	'direction',
	'id',
	'sent_by',
	'type',
];
export const AGENT_LIST_FIELDS = [
	'channels',
	'created_at',
	'id',
	'language',
	'name',
	'organization_id',
	'status',
	'updated_at',
];
export const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export function keysOf(value: object): string[] {
	return Object.keys(value).sort();
}

export async function start(options: SandboxOptions = {}): Promise<RunningSandbox> {
	return startSandbox({ port: 0, ...options });
}

/**
 * One sandbox for a test file (or a describe block, where it is called), reset before each
 * test; `ctx.sandbox` once `beforeAll` ran.
 */
export function useService(options: SandboxOptions = {}): { sandbox: RunningSandbox } {
	const ctx = {} as { sandbox: RunningSandbox };
	beforeAll(async () => {
		ctx.sandbox = await start(options);
	});
	afterAll(() => ctx.sandbox.close());
	beforeEach(() => ctx.sandbox.control.reset());
	return ctx;
}

export interface ApiResponse {
	status: number;
	headers: Headers;
	text: string;
	body: any;
}

export interface CallOptions {
	key?: string | null;
	/** JSON-encoded unless a string or Uint8Array. */
	body?: unknown;
	headers?: Record<string, string>;
	/** Omit the JSON Content-Type. */
	noContentType?: boolean;
}

/** One request to the sandbox's /v1 interface with the full key unless told otherwise. */
export async function call(
	sandbox: RunningSandbox,
	method: string,
	path: string,
	options: CallOptions = {},
): Promise<ApiResponse> {
	const headers: Record<string, string> = {};
	const key = options.key === undefined ? sandbox.keys.full : options.key;
	if (key !== null) headers['X-API-Key'] = key;
	let body: string | Uint8Array | undefined;
	if (options.body !== undefined) {
		body =
			typeof options.body === 'string' || options.body instanceof Uint8Array
				? options.body
				: JSON.stringify(options.body);
		if (!options.noContentType) headers['Content-Type'] = 'application/json';
	}
	const response = await fetch(sandbox.baseUrl + path, {
		method,
		headers: { ...headers, ...options.headers },
		body,
	});
	const text = await response.text();
	let parsed: unknown;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		parsed = undefined;
	}
	return { status: response.status, headers: response.headers, text, body: parsed };
}

/** Follows next_cursor (cursor only, as a client should) and returns every page. */
export async function walk(
	sandbox: RunningSandbox,
	path: string,
	query: Record<string, string>,
	key?: string,
): Promise<{ items: any[]; pages: ApiResponse[] }> {
	const pages: ApiResponse[] = [];
	const items: any[] = [];
	let search = new URLSearchParams(query).toString();
	for (let guard = 0; guard < 10_000; guard++) {
		const page = await call(sandbox, 'GET', `${path}?${search}`, { key });
		if (page.status !== 200) throw new Error(`${page.status} ${page.text}`);
		pages.push(page);
		items.push(...page.body.data);
		if (!page.body.pagination.has_more) break;
		const next = new URLSearchParams({ cursor: page.body.pagination.next_cursor });
		if (query.limit) next.set('limit', query.limit);
		search = next.toString();
	}
	return { items, pages };
}

/** List order of the sandbox: created_at descending, then id ascending. */
export function listOrder(
	a: { created_at: string; id: string },
	b: { created_at: string; id: string },
): number {
	const byTime = Date.parse(b.created_at) - Date.parse(a.created_at);
	if (byTime !== 0) return byTime;
	return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export interface ReceivedRequest {
	headers: Record<string, string | string[]>;
	body: Buffer;
	at: number;
}

export interface Receiver {
	url: string;
	received: ReceivedRequest[];
	waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
	close(): Promise<void>;
}

/**
 * A webhook receiver. `respond` picks the status of the n-th request (1-based); returning 0
 * leaves the request unanswered (to provoke a time-out).
 */
export async function startReceiver(
	options: { tls?: Certificate; respond?: (n: number) => number } = {},
): Promise<Receiver> {
	const received: ReceivedRequest[] = [];
	const waiters: Array<() => void> = [];
	const answer: AnswerRequest = ({ headers, body }) => {
		received.push({ headers, body, at: Date.now() });
		waiters.splice(0).forEach((wake) => wake());
		const status = options.respond ? options.respond(received.length) : 200;
		if (status === 0) return 'noAnswer';
		return { status, body: 'ok', headers: { 'Content-Type': 'text/plain' } };
	};
	const server = options.tls
		? await startHttpsReceiver(answer, options.tls)
		: await startHttpReceiver(answer);
	return {
		url: `${server.url}hook`,
		received,
		async waitFor(count, timeoutMs = 5000) {
			const deadline = Date.now() + timeoutMs;
			while (received.length < count) {
				if (Date.now() > deadline)
					throw new Error(`expected ${count} deliveries, got ${received.length}`);
				await new Promise<void>((resolve) => {
					waiters.push(resolve);
					setTimeout(resolve, 50);
				});
			}
			return received;
		},
		close: server.close,
	};
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Leads of org_alpha in list order, those `filter` keeps. */
export function alphaLeadsOf(
	sandbox: RunningSandbox,
	filter: (lead: StoredLead) => boolean = () => true,
): StoredLead[] {
	return sandbox.control
		.state()
		.leads.filter((lead) => lead.organization_id === 'org_alpha' && filter(lead))
		.sort(listOrder);
}

/** Whether `signature` is the service's signature of `body` with `secret` (hex HMAC-SHA256). */
export function verify(
	body: Buffer,
	signature: string | string[] | undefined,
	secret: string,
): boolean {
	if (typeof signature !== 'string') return false;
	const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('hex'));
	const given = Buffer.from(signature);
	return given.length === expected.length && timingSafeEqual(given, expected);
}
