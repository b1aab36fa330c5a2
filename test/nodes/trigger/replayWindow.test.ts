import {
	DEFAULT_REPLAY_WINDOW,
	dedupHorizonMs,
	replayWindowOf,
	timestampVerdict,
} from '../../../nodes/shared/events/replayWindow';
import { RETRY_OFFSETS_MS } from '../../../sandbox/constants';

const MINUTE = 60_000;
const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

describe('timestampVerdict: the clock edges of the replay window', () => {
	it.each([
		['exactly 60 minutes old', -60 * MINUTE, 'inside'],
		['60 minutes and 1 ms old', -60 * MINUTE - 1, 'tooOld'],
		['a day old', -24 * 60 * MINUTE, 'tooOld'],
		['now', 0, 'inside'],
		['exactly 5 minutes ahead', 5 * MINUTE, 'inside'],
		['5 minutes and 1 ms ahead', 5 * MINUTE + 1, 'tooNew'],
		['a year ahead', 365 * 24 * 60 * MINUTE, 'tooNew'],
	])('%s is %s', (_label, offsetMs, verdict) => {
		expect(timestampVerdict(at(offsetMs), NOW, DEFAULT_REPLAY_WINDOW)).toBe(verdict);
	});

	it('reads ISO 8601 with an offset as the same instant', () => {
		expect(timestampVerdict('2026-11-24T08:59:00-03:00', NOW)).toBe('inside');
		expect(timestampVerdict('2026-11-24T07:59:00-03:00', NOW)).toBe('tooOld');
	});

	it.each([undefined, null, '', 'yesterday', 1732449600000, {}, '2026-13-40T99:00:00Z'])(
		'calls %p missing',
		(timestamp) => {
			expect(timestampVerdict(timestamp, NOW)).toBe('missing');
		},
	);
});

describe('the window against the service retry schedule', () => {
	it('accepts the last retry even when the waits add up (1 + 5 + 30 minutes) and each attempt took its 10 s', () => {
		const lastRetry = RETRY_OFFSETS_MS.reduce((sum, offset) => sum + offset, 0) + 4 * 10_000;
		expect(lastRetry).toBe(36 * MINUTE + 40_000);
		expect(timestampVerdict(at(-lastRetry), NOW)).toBe('inside');
		// With 20 minutes more between the event and its first attempt.
		expect(timestampVerdict(at(-lastRetry - 20 * MINUTE), NOW)).toBe('inside');
	});

	it('is a user option kept between 40 minutes and a day', () => {
		expect(replayWindowOf(undefined)).toEqual(DEFAULT_REPLAY_WINDOW);
		expect(replayWindowOf(120).maxAgeMinutes).toBe(120);
		expect(replayWindowOf(1).maxAgeMinutes).toBe(40);
		expect(replayWindowOf(10_000).maxAgeMinutes).toBe(24 * 60);
		expect(timestampVerdict(at(-90 * MINUTE), NOW, replayWindowOf(120))).toBe('inside');
	});

	it('has a duplicate memory that lasts as long as any accepted delivery can arrive', () => {
		for (const window of [DEFAULT_REPLAY_WINDOW, replayWindowOf(40), replayWindowOf(24 * 60)]) {
			// First seen now with a stamp the furthest ahead; accepted until maxAge after the stamp.
			const acceptedUntil = (window.maxAheadMinutes + window.maxAgeMinutes) * MINUTE;
			expect(dedupHorizonMs(window)).toBeGreaterThanOrEqual(acceptedUntil);
		}
	});
});
