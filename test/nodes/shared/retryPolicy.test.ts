import type { IHttpRequestMethods } from 'n8n-workflow';

import {
	classifyNetworkError,
	decideRetry,
	isTransientStatus,
	MAX_TRANSIENT_RETRIES,
	TRANSIENT_BACKOFF,
	TRANSIENT_RETRY_BUDGET_MS,
	type AttemptFailure,
	networkErrorCode,
	shouldRetryNetworkFailure,
	shouldRetryStatus,
} from '../../../nodes/shared/transport/retryPolicy';

/** The shape n8n throws: a NodeApiError whose cause is the client error with the system code. */
function wrapped(code: string, message = 'failed') {
	const system = Object.assign(new Error(message), { code });
	const client = Object.assign(new Error(message), { code, cause: system });
	return Object.assign(new Error('n8n message'), { httpCode: code, cause: client });
}

describe('which status codes are retried', () => {
	test.each<[IHttpRequestMethods, number, boolean]>([
		['GET', 500, true],
		['GET', 502, true],
		['GET', 503, true],
		['GET', 504, true],
		['PATCH', 503, true],
		['GET', 501, false],
		['GET', 400, false],
		['GET', 404, false],
		['POST', 500, false],
		['POST', 503, false],
	])('%s answered %d → retried: %p', (method, status, retried) => {
		expect(shouldRetryStatus(method, status)).toBe(retried);
	});
	test('505 is not transient', () => expect(isTransientStatus(505)).toBe(false));
});

describe('which network failures are retried', () => {
	// By method and outcome: the failure codes of each.
	const cases: Array<[IHttpRequestMethods, string[], boolean]> = [
		['GET', ['ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'ECONNREFUSED'], true],
		['PATCH', ['ECONNRESET'], true],
		['POST', ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'], true],
		['POST', ['ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE'], false],
	];
	test.each(
		cases.flatMap(([method, codes, retried]) =>
			codes.map((code) => [method, code, retried] as const),
		),
	)('%s failing with %s → retried: %p', (method, code, retried) => {
		const failure = classifyNetworkError(wrapped(code));
		expect(failure?.code).toBe(code);
		expect(shouldRetryNetworkFailure(method, failure!)).toBe(retried);
	});

	test('a POST whose socket hung up after sending is never resent', () => {
		const hangUp = new Error('socket hang up');
		const failure = classifyNetworkError(hangUp);
		expect(failure).toEqual({ code: 'ECONNRESET', maybeSent: true });
		expect(shouldRetryNetworkFailure('POST', failure!)).toBe(false);
	});

	test('a time-out message without a code counts as possibly sent', () => {
		expect(classifyNetworkError(new Error('timeout of 30000ms exceeded'))).toEqual({
			code: 'ECONNABORTED',
			maybeSent: true,
		});
	});

	test('errors that are not network failures are not classified', () => {
		expect(classifyNetworkError(new Error('Credentials not found'))).toBeUndefined();
		expect(networkErrorCode(undefined)).toBeUndefined();
		const circular: Record<string, unknown> = { message: 'x' };
		circular.cause = circular;
		expect(networkErrorCode(circular)).toBeUndefined();
	});
});

describe('deciding a retry', () => {
	const START = { retries: 0, elapsedMs: 0 };
	const refused: AttemptFailure = { network: { code: 'ECONNREFUSED', maybeSent: false } };
	const reset: AttemptFailure = { network: { code: 'ECONNRESET', maybeSent: true } };
	const timedOut: AttemptFailure = { network: { code: 'ECONNABORTED', maybeSent: true } };

	test.each<[string, IHttpRequestMethods, AttemptFailure, boolean]>([
		['GET answered 503', 'GET', { status: 503 }, true],
		['GET answered 500', 'GET', { status: 500 }, true],
		['GET whose connection dropped', 'GET', reset, true],
		['GET that timed out', 'GET', timedOut, true],
		['PATCH answered 502', 'PATCH', { status: 502 }, true],
		['PATCH that timed out', 'PATCH', timedOut, true],
		['DELETE answered 500', 'DELETE', { status: 500 }, true],
		['DELETE whose connection dropped', 'DELETE', reset, true],
		['GET answered 501', 'GET', { status: 501 }, false],
		['GET answered 404', 'GET', { status: 404 }, false],
		['POST answered 503', 'POST', { status: 503 }, false],
		['POST whose connection dropped', 'POST', reset, false],
		['POST that timed out', 'POST', timedOut, false],
		['POST refused before sending', 'POST', refused, true],
	])('%s → retried: %p', (_case, method, failure, retried) => {
		const decision = decideRetry(method, failure, START, () => 0.5);
		expect(decision.retry).toBe(retried);
		if (!decision.retry) expect(decision.exhausted).toBe('never');
	});

	test('waits grow from about 200 ms to 5 s, with jitter', () => {
		const waits = (random: () => number) =>
			Array.from({ length: MAX_TRANSIENT_RETRIES }, (_, retries) => {
				const decision = decideRetry('GET', { status: 503 }, { retries, elapsedMs: 0 }, random);
				return decision.retry ? decision.delayMs : undefined;
			});
		expect(waits(() => 1)).toEqual([200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
		expect(waits(() => 0)).toEqual([100, 200, 400, 800, 1600, 2500, 2500, 2500]);
		expect(TRANSIENT_BACKOFF).toEqual({ baseMs: 200, capMs: 5000 });
	});

	test(`stops after ${MAX_TRANSIENT_RETRIES} retries`, () => {
		expect(
			decideRetry('GET', reset, { retries: MAX_TRANSIENT_RETRIES - 1, elapsedMs: 0 }).retry,
		).toBe(true);
		expect(decideRetry('GET', reset, { retries: MAX_TRANSIENT_RETRIES, elapsedMs: 0 })).toEqual({
			retry: false,
			exhausted: 'count',
		});
	});

	test('starts no retry whose wait would end beyond the time budget', () => {
		const late = { retries: 2, elapsedMs: TRANSIENT_RETRY_BUDGET_MS - 500 };
		expect(decideRetry('GET', { status: 500 }, late, () => 0).retry).toBe(true); // 400 ms fits
		expect(decideRetry('GET', { status: 500 }, late, () => 1)).toEqual({
			retry: false,
			exhausted: 'time',
		});
		// Two time-outs of 30 s use the budget up: a third attempt is not started.
		expect(decideRetry('GET', timedOut, { retries: 1, elapsedMs: 60_100 }, () => 0).retry).toBe(
			false,
		);
	});

	test('fast failures get every retry within the budget', () => {
		const slowest = Array.from({ length: MAX_TRANSIENT_RETRIES }, (_, retries) =>
			Math.min(TRANSIENT_BACKOFF.capMs, TRANSIENT_BACKOFF.baseMs * 2 ** retries),
		).reduce((sum, wait) => sum + wait, 0);
		expect(slowest).toBe(21_200);
		expect(slowest).toBeLessThan(TRANSIENT_RETRY_BUDGET_MS / 2);
	});

	test('at a 20% fault rate, 50 lists of 20 pages all complete with p > 99.9%', () => {
		const pageLost = 0.2 ** (MAX_TRANSIENT_RETRIES + 1);
		expect((1 - pageLost) ** (20 * 50)).toBeGreaterThan(0.999);
	});
});
