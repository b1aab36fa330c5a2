// Reading the service's rate-limit headers, and how long to wait after a 429.

import {
	MAX_RATE_LIMIT_WAIT_MS,
	parseResetHeader,
	parseRetryAfter,
	WaitBudget,
	waitAfterRateLimit,
} from '../../../../nodes/shared/transport/rateLimit';
import { NOW, inSeconds } from './fixtures';

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

describe('waiting after a 429', () => {
	test.each([
		[
			'waits until X-RateLimit-Reset when the window is used up',
			{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': inSeconds(20), 'retry-after': '1' },
			{ waitMs: 20_050, basis: 'X-RateLimit-Reset' },
		],
		[
			'honours Retry-After when the window still has requests left',
			{ 'x-ratelimit-remaining': '40', 'x-ratelimit-reset': inSeconds(50), 'retry-after': '1' },
			{ waitMs: 1000, basis: 'Retry-After' },
		],
		['uses Retry-After alone', { 'retry-after': '3' }, { waitMs: 3000, basis: 'Retry-After' }],
	])('%s', (_case, headers, expected) => {
		expect(waitAfterRateLimit(headers, 0, NOW)).toEqual(expected);
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

describe('the wait budget', () => {
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
