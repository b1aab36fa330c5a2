import {
	backoffMs,
	forgetWindow,
	MAX_RATE_LIMIT_WAIT_MS,
	pacingStateFor,
	pacingWaitMs,
	parseResetHeader,
	parseRetryAfter,
	RATE_LIMIT_BACKOFF,
	recordRateLimitHeaders,
	TRANSIENT_BACKOFF,
	WaitBudget,
	waitAfterRateLimit,
	type PacingState,
} from '../../../nodes/shared/transport/rateLimit';

const NOW = Date.UTC(2025, 4, 1, 12, 0, 0);
const inSeconds = (seconds: number) => String(Math.floor(NOW / 1000) + seconds);

describe('reading X-RateLimit-Reset', () => {
	test.each([
		['Unix seconds, as specified', inSeconds(30), NOW + 30_000],
		['milliseconds', String(NOW + 5_000), NOW + 5_000],
		['seconds from now', '12', NOW + 12_000],
		['missing', undefined, undefined],
		['garbage', 'soon', undefined],
	])('%s', (_case, value, expected) => {
		expect(parseResetHeader(value, NOW)).toBe(expected);
	});
});

describe('reading Retry-After', () => {
	test('delta seconds', () => expect(parseRetryAfter('2', NOW)).toBe(2000));
	test('fractional seconds', () => expect(parseRetryAfter('0.5', NOW)).toBe(500));
	test('HTTP date', () =>
		expect(parseRetryAfter(new Date(NOW + 7000).toUTCString(), NOW)).toBe(7000));
	test('garbage', () => expect(parseRetryAfter('later', NOW)).toBeUndefined());
});

describe('pacing before a request', () => {
	test('waits for the reset when the window is used up', () => {
		const state: PacingState = {};
		recordRateLimitHeaders(
			state,
			{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': inSeconds(3) },
			NOW,
		);
		expect(pacingWaitMs(state, NOW)).toBe(3050);
		expect(pacingWaitMs(state, NOW + 2990)).toBe(60);
		expect(pacingWaitMs(state, NOW + 4000)).toBe(0);
	});
	test('does not wait while requests are left or nothing is known', () => {
		expect(pacingWaitMs({}, NOW)).toBe(0);
		expect(pacingWaitMs({ remaining: 3, resetAtMs: NOW + 5000 }, NOW)).toBe(0);
	});
	test('a response without the headers keeps what was known', () => {
		const state: PacingState = { remaining: 0, resetAtMs: NOW + 1000 };
		recordRateLimitHeaders(state, {}, NOW);
		expect(state).toEqual({ remaining: 0, resetAtMs: NOW + 1000 });
		forgetWindow(state);
		expect(pacingWaitMs(state, NOW)).toBe(0);
	});
	test('state is shared per key and service, and separate otherwise', () => {
		const a = pacingStateFor('https://a.example/v1#k1');
		a.remaining = 0;
		expect(pacingStateFor('https://a.example/v1#k1')).toBe(a);
		expect(pacingStateFor('https://a.example/v1#k2')).not.toBe(a);
	});
});

describe('waiting after a 429', () => {
	test('waits until X-RateLimit-Reset when the window is used up', () => {
		expect(
			waitAfterRateLimit(
				{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': inSeconds(20), 'retry-after': '1' },
				0,
				NOW,
			),
		).toEqual({ waitMs: 20_050, basis: 'X-RateLimit-Reset' });
	});
	test('honours Retry-After when the window still has requests left', () => {
		expect(
			waitAfterRateLimit(
				{ 'x-ratelimit-remaining': '40', 'x-ratelimit-reset': inSeconds(50), 'retry-after': '1' },
				0,
				NOW,
			),
		).toEqual({ waitMs: 1000, basis: 'Retry-After' });
	});
	test('uses Retry-After alone', () => {
		expect(waitAfterRateLimit({ 'retry-after': '3' }, 0, NOW)).toEqual({
			waitMs: 3000,
			basis: 'Retry-After',
		});
	});
	test('backs off exponentially with jitter when neither header is present', () => {
		const waits = [0, 1, 2, 3].map((retry) => waitAfterRateLimit({}, retry, NOW, () => 1).waitMs);
		expect(waits).toEqual([1000, 2000, 4000, 8000]);
		const low = waitAfterRateLimit({}, 2, NOW, () => 0);
		expect(low).toEqual({ waitMs: 2000, basis: 'backoff' });
	});
	test('a reset already past (clock skew) falls back to backoff', () => {
		expect(
			waitAfterRateLimit(
				{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': inSeconds(-5) },
				0,
				NOW,
				() => 0,
			).basis,
		).toBe('backoff');
	});
});

describe('backoff and the wait budget', () => {
	test('backoff stays between half and all of base·2^n, capped', () => {
		for (let retry = 0; retry < 10; retry++) {
			const ceiling = Math.min(TRANSIENT_BACKOFF.capMs, TRANSIENT_BACKOFF.baseMs * 2 ** retry);
			expect(backoffMs(retry, TRANSIENT_BACKOFF, () => 0)).toBe(ceiling / 2);
			expect(backoffMs(retry, TRANSIENT_BACKOFF, () => 0.999999)).toBeLessThanOrEqual(ceiling);
		}
		expect(backoffMs(20, RATE_LIMIT_BACKOFF, () => 1)).toBe(RATE_LIMIT_BACKOFF.capMs);
	});
	test('a wait that does not fit the remaining budget is refused', () => {
		const budget = new WaitBudget();
		expect(budget.limitMs).toBe(MAX_RATE_LIMIT_WAIT_MS);
		expect(budget.fits(MAX_RATE_LIMIT_WAIT_MS)).toBe(true);
		budget.spend(100_000);
		expect(budget.fits(20_000)).toBe(true);
		expect(budget.fits(20_001)).toBe(false);
		expect(budget.spent).toBe(100_000);
	});
});
