// Answers recorded `GET /leads` pages from memory, keyed by cursor, so that what a timing
// measures is the client: no data model, no sorting, no serialization per request, just a
// lookup and a write of bytes recorded once from the sandbox. The rate-limit headers say there
// is plenty left, so no client ever waits.

import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

import { PAGE_SIZE, type Target } from './clients';

export interface RecordedPages {
	/** Body bytes of each page, keyed by the cursor that asks for it ('' = the first page). */
	pages: Map<string, Buffer>;
	leads: number;
}

/** Reads every page of `GET /leads` once, with `limit=100`, and keeps the exact bytes. */
export async function recordPages(source: Target): Promise<RecordedPages> {
	const pages = new Map<string, Buffer>();
	let cursor = '';
	let leads = 0;
	for (;;) {
		const query =
			cursor === ''
				? `limit=${PAGE_SIZE}`
				: `limit=${PAGE_SIZE}&cursor=${encodeURIComponent(cursor)}`;
		const response = await fetch(`${source.baseUrl}/leads?${query}`, {
			headers: { 'X-API-Key': source.apiKey },
		});
		if (!response.ok) throw new Error(`Recording failed: HTTP ${response.status}`);
		const bytes = Buffer.from(await response.arrayBuffer());
		pages.set(cursor, bytes);
		const body = JSON.parse(bytes.toString('utf8')) as {
			data: unknown[];
			pagination: { has_more: boolean; next_cursor: string | null };
		};
		leads += body.data.length;
		if (!body.pagination.has_more || !body.pagination.next_cursor) break;
		cursor = body.pagination.next_cursor;
	}
	return { pages, leads };
}

export interface ReplayServer {
	target: Target;
	/** Requests answered since the last reset. */
	requests(): number;
	resetRequests(): void;
	close(): Promise<void>;
}

const GENEROUS_LIMIT = 1_000_000;

export async function startReplayServer(
	recorded: RecordedPages,
	apiKey: string,
): Promise<ReplayServer> {
	let requests = 0;
	const server: Server = createServer((request, response) => {
		requests++;
		const url = new URL(request.url ?? '/', 'http://replay');
		const send = (status: number, body: Buffer | string) => {
			const resetSeconds = Math.ceil(Date.now() / 1000) + 60;
			response.writeHead(status, {
				'Content-Type': 'application/json',
				'Content-Length': Buffer.byteLength(body),
				'X-RateLimit-Limit': String(GENEROUS_LIMIT),
				'X-RateLimit-Remaining': String(GENEROUS_LIMIT - 1),
				'X-RateLimit-Reset': String(resetSeconds),
			});
			response.end(body);
		};
		if (request.headers['x-api-key'] !== apiKey) {
			send(401, '{"error":"unauthorized","message":"Missing or invalid API key"}');
			return;
		}
		if (request.method !== 'GET' || url.pathname !== '/v1/leads') {
			send(404, '{"error":"not_found","message":"Only GET /v1/leads is recorded"}');
			return;
		}
		const page = recorded.pages.get(url.searchParams.get('cursor') ?? '');
		if (!page || url.searchParams.get('limit') !== String(PAGE_SIZE)) {
			send(
				400,
				'{"error":"invalid_request","message":"cursor: not a recorded cursor (or limit is not 100)"}',
			);
			return;
		}
		send(200, page);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		target: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey },
		requests: () => requests,
		resetRequests: () => {
			requests = 0;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
