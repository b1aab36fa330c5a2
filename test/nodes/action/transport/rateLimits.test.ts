// The node within the service's rate limit: waiting for the reset, pacing, and when not to wait.

import { apiRequests, jsonOf, run } from '../helpers';
import { startOfNextWindow } from '../../clock';
import { useTransportSandbox } from './setup';

const { ctx, clock, GET_LEAD, statuses, firstLeadIds, getEachLead } = useTransportSandbox();

function mostPerWindow(requests: Array<{ at: number }>, windowMs: number): number {
	const perWindow = new Map<number, number>();
	for (const { at } of requests) {
		const window = Math.floor(at / windowMs);
		perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
	}
	return Math.max(...perWindow.values());
}

/** The sandbox's windows are aligned on the clock: start a timing-sensitive step early in one. */
async function inFirstHalfOfWindow(windowMs: number) {
	clock.jumpTo(startOfNextWindow(windowMs));
}

/** Uses up the current rate-limit window with requests from outside the node. */
async function exhaustWindow(limit: number) {
	for (let i = 0; i < limit; i++) {
		await fetch(`${ctx.sandbox.baseUrl}/agents?limit=1`, {
			headers: { 'X-API-Key': ctx.sandbox.keys.full },
		});
	}
}

describe('rate limits', () => {
	test('a 429 waits until X-RateLimit-Reset, then the retry succeeds', async () => {
		ctx.sandbox.control.setRateLimit(3, 2000);
		await inFirstHalfOfWindow(2000);
		await exhaustWindow(3);
		ctx.sandbox.control.clearRequests();
		const result = await run(ctx.sandbox, GET_LEAD());
		expect(result.error).toBeUndefined();
		const requests = apiRequests(ctx.sandbox);
		expect(requests.map((r) => r.status)).toEqual([429, 200]);
		// The window is clock-aligned: the retry lands in the next one.
		expect(Math.floor(requests[1].at / 2000)).toBeGreaterThan(Math.floor(requests[0].at / 2000));
		expect(
			result.logs.some((line) =>
				/rate limited \(429\); waiting \d+ ms \(X-RateLimit-Reset\)/.test(line),
			),
		).toBe(true);
	});

	test('Return All over 7 pages at 3 requests per second paces itself: 7 requests, no 429', async () => {
		ctx.sandbox.control.reset({ leads: 700 });
		ctx.sandbox.control.setRateLimit(3, 1000);
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'getAll',
			returnAll: true,
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toHaveLength(700);
		const requests = apiRequests(ctx.sandbox);
		expect(requests.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
		expect(mostPerWindow(requests, 1000)).toBeLessThanOrEqual(3);
		expect(result.logs.some((line) => line.includes('Rate limit used up: waiting'))).toBe(true);
	});

	test('the pacing is shared by all items of one execution', async () => {
		ctx.sandbox.control.setRateLimit(2, 1000);
		const ids = firstLeadIds(5);
		const result = await getEachLead(ids);
		expect(jsonOf(result).map((lead) => lead.id)).toEqual(ids);
		expect(statuses()).toEqual([200, 200, 200, 200, 200]);
	});

	test('parallel executions on one key take their slots before sending: no request beyond the window, no 429', async () => {
		const LIMIT = 4;
		ctx.sandbox.control.setRateLimit(LIMIT, 1000);
		await inFirstHalfOfWindow(1000);
		const ids = firstLeadIds(6);
		const results = await Promise.all([0, 1, 2].map(() => getEachLead(ids)));
		for (const result of results) expect(jsonOf(result).map((lead) => lead.id)).toEqual(ids);
		const requests = apiRequests(ctx.sandbox);
		expect(requests.map((r) => r.status)).toEqual(Array(18).fill(200));
		expect(mostPerWindow(requests, 1000)).toBeLessThanOrEqual(LIMIT);
	});

	test('an answer with a nearer reset than the one known, to a later request, is believed', async () => {
		// A window ending in decades is used up; then the service is set to short windows. The
		// next answers report an earlier reset: the node must pace on them, not on the old one.
		const CENTURY_MS = 100 * 365 * 86_400_000;
		ctx.sandbox.control.setRateLimit(1, CENTURY_MS);
		expect((await run(ctx.sandbox, GET_LEAD())).error).toBeUndefined();
		ctx.sandbox.control.setRateLimit(2, 2000);
		ctx.sandbox.control.clearRequests();
		await inFirstHalfOfWindow(2000);
		const ids = firstLeadIds(3);
		const result = await getEachLead(ids);
		expect(jsonOf(result).map((lead) => lead.id)).toEqual(ids);
		// The first request goes out (waiting decades does not fit), learns the 2 s window, and the
		// third waits for its reset instead of meeting a 429.
		expect(statuses()).toEqual([200, 200, 200]);
		expect(result.logs.some((line) => line.includes('Rate limit used up: waiting'))).toBe(true);
	});

	test('a 429 whose reset lies beyond the bounded wait fails at once, naming the page and the leads read', async () => {
		// A day-long window: its reset is far beyond the 120 s bound at any time of day but the
		// last two minutes before midnight UTC.
		ctx.sandbox.control.setRateLimit(2, 86_400_000);
		const started = Date.now();
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'getAll',
			returnAll: true,
		});
		// Half the 120 s bound: a node that waited once would miss it, a loaded machine would not.
		expect(Date.now() - started).toBeLessThan(60_000);
		expect(result.status).toBe('error');
		expect(result.output('Lead Conversations')).toEqual([]);
		expect(result.error?.httpCode).toBe('429');
		expect(result.error?.message).toBe(
			'The rate limit of the API key was reached (stopped at page 3 of /leads after 200 records were read; none are returned)',
		);
		expect(result.error?.description).toMatch(/HTTP 429 rate_limited/);
		expect(result.error?.description).toMatch(/beyond the 120 s this node waits per request/);
		expect(statuses()).toEqual([200, 200, 429]);
	});

	test('a 429 that leaves requests in the window honours Retry-After', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 429 });
		const result = await run(ctx.sandbox, GET_LEAD());
		expect(result.error).toBeUndefined();
		const requests = apiRequests(ctx.sandbox);
		expect(requests.map((r) => r.status)).toEqual([429, 200]);
		expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(1000);
	});
});
