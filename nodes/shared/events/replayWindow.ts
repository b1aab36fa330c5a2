/**
 * How old or how far ahead an event's `timestamp` may be for a signed delivery to be accepted.
 *
 * The service retries a failed delivery about 1, 5 and 30 minutes after the first failure
 * (spec: Events, Delivery); read as successive waits that is 36 minutes, and each attempt may
 * take up to 10 s before it counts as failed. An hour leaves a margin of more than 20 minutes
 * for the time between the event and its first attempt. A few minutes ahead allow for clocks
 * that disagree. Anything outside is refused even with a valid signature: it is a captured
 * delivery sent again, and the duplicate memory (which covers the whole window, see
 * `dedupHorizonMs`) may no longer hold it.
 */
export const DEFAULT_MAX_EVENT_AGE_MINUTES = 60;

/** The last retry plus the attempts' time-outs: a shorter window would refuse real retries. */
export const MIN_MAX_EVENT_AGE_MINUTES = 40;

export const MAX_MAX_EVENT_AGE_MINUTES = 24 * 60;

export const MAX_CLOCK_AHEAD_MINUTES = 5;

const MINUTE_MS = 60_000;

export interface ReplayWindow {
	maxAgeMinutes: number;
	maxAheadMinutes: number;
}

export const DEFAULT_REPLAY_WINDOW: ReplayWindow = {
	maxAgeMinutes: DEFAULT_MAX_EVENT_AGE_MINUTES,
	maxAheadMinutes: MAX_CLOCK_AHEAD_MINUTES,
};

/** The window for a user's choice of maximum age, kept inside the bounds above. */
export function replayWindowOf(maxAgeMinutes: unknown): ReplayWindow {
	const chosen =
		typeof maxAgeMinutes === 'number' && Number.isFinite(maxAgeMinutes)
			? maxAgeMinutes
			: DEFAULT_MAX_EVENT_AGE_MINUTES;
	return {
		maxAgeMinutes: Math.min(MAX_MAX_EVENT_AGE_MINUTES, Math.max(MIN_MAX_EVENT_AGE_MINUTES, chosen)),
		maxAheadMinutes: MAX_CLOCK_AHEAD_MINUTES,
	};
}

export type TimestampVerdict = 'inside' | 'tooOld' | 'tooNew' | 'missing';

/**
 * Where the payload's `timestamp` (ISO 8601, when the event occurred) lies against `now`. The
 * edges belong to the window: exactly `maxAgeMinutes` old or `maxAheadMinutes` ahead is inside.
 * A timestamp that is absent or not a date is `missing`: such a delivery could be replayed for
 * ever once the duplicate memory forgot it.
 */
export function timestampVerdict(
	timestamp: unknown,
	now: number,
	window: ReplayWindow = DEFAULT_REPLAY_WINDOW,
): TimestampVerdict {
	if (typeof timestamp !== 'string' || timestamp === '') return 'missing';
	const at = Date.parse(timestamp);
	if (Number.isNaN(at)) return 'missing';
	if (now - at > window.maxAgeMinutes * MINUTE_MS) return 'tooOld';
	if (at - now > window.maxAheadMinutes * MINUTE_MS) return 'tooNew';
	return 'inside';
}

/**
 * How long a delivery key must be remembered so that no delivery accepted by the window can
 * start a second run: an event stamped `maxAheadMinutes` in the future is first seen now and
 * accepted until `maxAgeMinutes` after its stamp.
 */
export function dedupHorizonMs(window: ReplayWindow): number {
	return (window.maxAgeMinutes + window.maxAheadMinutes) * MINUTE_MS;
}
