import { delays } from '../../../nodes/shared/transport/delays';
import { MAX_TRANSIENT_RETRIES } from '../../../nodes/shared/transport/retryPolicy';
import { runActionNode, startTestSandbox } from '../../../harness/engine';
import { alphaLeads, apiRequests, jsonOf, ref, run, useSandbox, visibleTrace } from './helpers';
import { freePort } from '../../../harness/support/ports';
import { startScriptedService } from './servers';
import { startOfNextWindow, useJumpingClock } from '../clock';

const ctx = useSandbox({ leads: 250 });
const clock = useJumpingClock();

afterEach(() => {
	ctx.sandbox.control.setRateLimit(1000, 60_000);
});

const GET_LEAD = () => ({
	resource: 'lead',
	operation: 'get',
	lead: ref('id', alphaLeads(ctx.sandbox)[0].id),
});
const CREATE_LEAD = (phone: string) => ({
	resource: 'lead',
	operation: 'create',
	name: 'Retry Test',
	phone,
});
const statuses = (path?: string) => apiRequests(ctx.sandbox, path).map((r) => r.status);
const leadsWithPhone = (phone: string) =>
	ctx.sandbox.control.state().leads.filter((l) => l.phone === phone);
const firstLeadIds = (count: number) =>
	alphaLeads(ctx.sandbox)
		.slice(0, count)
		.map((lead) => lead.id);
/** One execution that gets each lead, one input item per ID. */
const getEachLead = (ids: string[]) =>
	run(
		ctx.sandbox,
		{ resource: 'lead', operation: 'get', lead: ref('id', '={{ $json.id }}') },
		{ inputItems: ids.map((id) => ({ id })) },
	);

/** The most requests that fell into one clock-aligned window. */
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
		expect(Date.now() - started).toBeLessThan(5000);
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

describe('transient faults on reads and updates', () => {
	test('a GET answered 503 twice is retried and succeeds', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 503, count: 2 });
		const result = await run(ctx.sandbox, GET_LEAD());
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toHaveLength(1);
		expect(statuses()).toEqual([503, 503, 200]);
	});

	test('a GET still failing after 8 retries fails with the status and the service message', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 500, count: 20 });
		const result = await run(ctx.sandbox, GET_LEAD());
		expect(result.error?.httpCode).toBe('500');
		expect(result.error?.message).toBe('The service failed to process the request (HTTP 500)');
		expect(result.error?.description).toMatch(
			/^HTTP 500 internal_error: Injected fault: status 500\./,
		);
		expect(result.error?.description).toMatch(/Failed again after 8 retries over \d+ s/);
		expect(statuses()).toEqual(Array(MAX_TRANSIENT_RETRIES + 1).fill(500));
		const retries = result.logs.filter((line) => /HTTP 500; retry \d+ of 8 in \d+ ms/.test(line));
		expect(retries).toHaveLength(MAX_TRANSIENT_RETRIES);
		expect(visibleTrace(result)).not.toContain(ctx.sandbox.keys.full);
	});

	test('a PATCH answered 502 is retried and applied once', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 502, method: 'PATCH' });
		const lead = alphaLeads(ctx.sandbox)[0];
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'update',
			lead: ref('id', lead.id),
			updateFields: { status: 'closed' },
		});
		expect(jsonOf(result)[0].status).toBe('closed');
		expect(statuses()).toEqual([502, 200]);
	});

	test.each(['drop', 'dropAfterProcessing'] as const)(
		'a GET whose connection is cut (%s) is retried and succeeds',
		async (kind) => {
			ctx.sandbox.control.injectFaults({ kind });
			const result = await run(ctx.sandbox, GET_LEAD());
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toHaveLength(1);
			expect(apiRequests(ctx.sandbox)).toHaveLength(2);
			expect(statuses()[1]).toBe(200);
		},
	);

	test('Return All survives a dropped connection in the middle without duplicates', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'delay', delayMs: 0 });
		ctx.sandbox.control.injectFaults({ kind: 'drop' });
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'getAll',
			returnAll: true,
		});
		const ids = jsonOf(result).map((lead) => lead.id);
		expect(ids).toHaveLength(250);
		expect(new Set(ids).size).toBe(250);
		expect(apiRequests(ctx.sandbox)).toHaveLength(4);
	});

	test('a GET to a port nothing listens on fails clearly after the retries', async () => {
		const port = await freePort();
		const result = await runActionNode(GET_LEAD(), {
			apiKey: ctx.sandbox.keys.full,
			baseUrl: `http://127.0.0.1:${port}/v1`,
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(
			/^Could not complete GET \/leads\/lead_\S+: the service refused the connection after 9 attempts$/,
		);
		expect(result.error?.description).toMatch(/ECONNREFUSED/);
	});
});

describe('a list never ends silently with part of its pages', () => {
	test('a page failing after the retries fails the item, naming the page and the records read', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'delay', delayMs: 0 });
		ctx.sandbox.control.injectFaults({
			kind: 'status',
			status: 503,
			count: MAX_TRANSIENT_RETRIES + 1,
		});
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'getAll',
			returnAll: true,
		});
		expect(result.status).toBe('error');
		expect(result.output('Lead Conversations')).toEqual([]);
		expect(result.error?.httpCode).toBe('503');
		expect(result.error?.message).toBe(
			'The service failed to process the request (HTTP 503) (stopped at page 2 of /leads after 100 records were read; none are returned)',
		);
		expect(statuses()).toEqual([200, ...Array(MAX_TRANSIENT_RETRIES + 1).fill(503)]);
	});

	test('a refused cursor fails the item, naming the page and the records read', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'badCursor' });
		const result = await run(ctx.sandbox, { resource: 'lead', operation: 'getAll', limit: 220 });
		expect(result.error?.httpCode).toBe('400');
		expect(result.error?.message).toMatch(
			/^The service rejected the request as invalid: .*cursor.*\(stopped at page 2 of \/leads after 100 records were read; none are returned\)$/,
		);
		expect(statuses()).toEqual([200, 400]);
	});

	test('with continue on fail the failed list is one error item, the next item still runs', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'badCursor' });
		const result = await run(
			ctx.sandbox,
			{ resource: 'lead', operation: 'getAll', limit: 150 },
			{ continueOnFail: true, inputItems: [{}, {}] },
		);
		const output = result.output('Lead Conversations');
		expect(output).toHaveLength(1 + 150);
		expect(output[0]).toEqual({
			json: expect.objectContaining({
				error: expect.stringMatching(/stopped at page 2/),
				httpCode: '400',
			}),
			pairedItem: { item: 0 },
		});
		expect(output.slice(1).every((item) => (item.pairedItem as { item: number }).item === 1)).toBe(
			true,
		);
	});
});

describe('creating is never duplicated', () => {
	test.each([
		['drop', 0],
		['dropAfterProcessing', 1],
	] as const)('a POST whose connection is cut (%s) is not resent', async (kind, created) => {
		ctx.sandbox.control.injectFaults({ kind, method: 'POST' });
		const result = await run(ctx.sandbox, CREATE_LEAD('+5491100000001'));
		expect(result.error?.message).toBe(
			'Could not complete POST /leads: the connection to the service was closed before an answer arrived',
		);
		expect(result.error?.description).toMatch(/was not sent again/);
		expect(apiRequests(ctx.sandbox).filter((r) => r.method === 'POST')).toHaveLength(1);
		expect(leadsWithPhone('+5491100000001')).toHaveLength(created);
	});

	test('a POST answered 503 is not resent', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 503, method: 'POST' });
		const result = await run(ctx.sandbox, CREATE_LEAD('+5491100000002'));
		expect(result.error?.httpCode).toBe('503');
		expect(statuses()).toEqual([503]);
	});

	test('a POST answered 429 is resent after the wait and creates one lead', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 429, method: 'POST' });
		const result = await run(ctx.sandbox, CREATE_LEAD('+5491100000003'));
		expect(result.error).toBeUndefined();
		expect(statuses()).toEqual([429, 201]);
		expect(leadsWithPhone('+5491100000003')).toHaveLength(1);
	});

	test('a message whose connection is cut after processing is posted exactly once', async () => {
		const conversation = ctx.sandbox.control
			.state()
			.conversations.find((c) => c.organization_id === 'org_alpha' && c.status === 'open')!;
		ctx.sandbox.control.injectFaults({ kind: 'dropAfterProcessing', method: 'POST' });
		const result = await run(ctx.sandbox, {
			resource: 'conversation',
			operation: 'sendMessage',
			conversation: ref('id', conversation.id),
			content: 'Only once',
		});
		expect(result.status).toBe('error');
		const after = ctx.sandbox.control.state().conversations.find((c) => c.id === conversation.id)!;
		expect(after.messages.filter((m) => m.content === 'Only once')).toHaveLength(1);
	});

	test('a POST refused before any connection is resent once the service is up, creating one lead', async () => {
		const port = await freePort();
		const seed = 777;
		// Same seed, same keys: learn them from a throw-away instance first.
		const probe = await startTestSandbox({ seed, leads: 0 });
		const keys = probe.keys;
		await probe.close();
		// The service comes up during the node's first wait after the refused connection, so the
		// retry meets it whatever the machine's speed.
		let later: ReturnType<typeof startTestSandbox> | undefined;
		const jump = delays.sleep;
		delays.sleep = async (ms) => {
			later ??= startTestSandbox({ port, seed, leads: 5 });
			await later;
			await jump(ms);
		};
		const result = await runActionNode(CREATE_LEAD('+5491100000004'), {
			apiKey: keys.full,
			baseUrl: `http://127.0.0.1:${port}/v1`,
		});
		const service = await (later ?? startTestSandbox({ port, seed, leads: 5 }));
		try {
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)[0]).toMatchObject({ phone: '+5491100000004' });
			expect(service.control.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
			expect(
				service.control.state().leads.filter((l) => l.phone === '+5491100000004'),
			).toHaveLength(1);
			expect(result.logs.some((line) => /POST \/leads: .*ECONNREFUSED.*retry 1/.test(line))).toBe(
				true,
			);
		} finally {
			await service.close();
		}
	});
});

describe('errors the user can act on, never with the API key', () => {
	test('401 (revoked key): the key is missing, invalid or revoked', async () => {
		const result = await run(ctx.sandbox, GET_LEAD(), { key: 'revoked' });
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.message).toBe('The API key was rejected');
		expect(result.error?.description).toMatch(/^HTTP 401 unauthorized: API key has been revoked\./);
		expect(result.error?.description).toMatch(/missing, invalid or revoked/);
		expect(statuses()).toEqual([401]);
		expect(visibleTrace(result)).not.toContain(ctx.sandbox.keys.revoked);
	});

	test('403 (suspended account): restricted key, suspended account or plan tier', async () => {
		const result = await run(ctx.sandbox, GET_LEAD(), { key: 'suspended' });
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.description).toMatch(/HTTP 403 forbidden: The account is suspended/);
		expect(result.error?.description).toMatch(/scope-restricted.*suspended.*plan tier/);
		expect(visibleTrace(result)).not.toContain(ctx.sandbox.keys.suspended);
	});

	test('403 (read-only key writing) is not retried', async () => {
		const result = await run(ctx.sandbox, CREATE_LEAD('+5491100000005'), { key: 'readOnly' });
		expect(result.error?.httpCode).toBe('403');
		expect(statuses()).toEqual([403]);
		expect(visibleTrace(result)).not.toContain(ctx.sandbox.keys.readOnly);
	});

	test('a Base URL without /v1 is refused before anything is sent', async () => {
		const result = await runActionNode(GET_LEAD(), {
			apiKey: ctx.sandbox.keys.full,
			baseUrl: ctx.sandbox.baseUrl.replace(/\/v1$/, ''),
		});
		expect(result.error?.message).toMatch(/^Base URL must be an http\(s\) address ending in \/v1/);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});

	test('none of the failures above or below put the key in logs or output', async () => {
		// A POST answered 500 is not retried: the failure comes at once.
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 500, method: 'POST' });
		const failed = await run(ctx.sandbox, CREATE_LEAD('+5491100000006'), {
			continueOnFail: true,
		});
		expect(jsonOf(failed)[0].error).toBeDefined();
		expect(visibleTrace(failed)).not.toContain(ctx.sandbox.keys.full);
	});
});

describe('answers in shapes the specification does not show', () => {
	test('a plain-text 502 is retried, then reported with its text', async () => {
		const service = await startScriptedService([], {
			status: 502,
			body: 'Bad Gateway from the proxy',
			headers: { 'Content-Type': 'text/plain' },
		});
		try {
			const result = await runActionNode(GET_LEAD(), {
				apiKey: 'k-plain-text-test',
				baseUrl: service.baseUrl,
			});
			expect(service.received).toHaveLength(MAX_TRANSIENT_RETRIES + 1);
			expect(result.error?.httpCode).toBe('502');
			expect(result.error?.description).toMatch(/^HTTP 502: Bad Gateway from the proxy\./);
		} finally {
			await service.close();
		}
	});

	test('an empty 400 body still gives the status', async () => {
		const service = await startScriptedService([], { status: 400 });
		try {
			const result = await runActionNode(GET_LEAD(), {
				apiKey: 'k-empty-body-test',
				baseUrl: service.baseUrl,
			});
			expect(result.error?.httpCode).toBe('400');
			expect(result.error?.message).toBe('The service rejected the request as invalid');
			expect(result.error?.description).toMatch(/^HTTP 400 \(no message in the response\)\./);
		} finally {
			await service.close();
		}
	});

	test('a 429 without any rate-limit header backs off and retries', async () => {
		const lead = { id: 'lead_1', name: 'A' };
		const service = await startScriptedService([{ status: 429 }], {
			status: 200,
			body: JSON.stringify(lead),
			headers: { 'Content-Type': 'application/json' },
		});
		try {
			const result = await runActionNode(
				{ resource: 'lead', operation: 'get', lead: ref('id', 'lead_1') },
				{ apiKey: 'k-no-header-test', baseUrl: service.baseUrl },
			);
			expect(jsonOf(result)).toEqual([lead]);
			expect(service.received).toHaveLength(2);
			expect(service.received[1].at - service.received[0].at).toBeGreaterThanOrEqual(450);
			expect(result.logs.some((line) => line.includes('(backoff)'))).toBe(true);
		} finally {
			await service.close();
		}
	});

	test('a service echoing the key in an error message has it redacted', async () => {
		const apiKey = 'k-echoed-secret-1234567890';
		const service = await startScriptedService([], {
			status: 401,
			body: JSON.stringify({ error: 'unauthorized', message: `Unknown key ${apiKey}` }),
			headers: { 'Content-Type': 'application/json' },
		});
		try {
			const result = await runActionNode(GET_LEAD(), { apiKey, baseUrl: service.baseUrl });
			expect(result.error?.description).toMatch(/Unknown key \[redacted\]/);
			expect(visibleTrace(result)).not.toContain(apiKey);
		} finally {
			await service.close();
		}
	});
});
