/**
 * The service retries a failed delivery about 1, 5 and 30 minutes after the first failure, with
 * the same body, so the last retry of an event arrives ~36 minutes after it occurred (plus the
 * time of the failed attempts). An hour leaves room for that, and matches how long duplicates are
 * remembered: an older copy is refused here, a younger one is caught as a duplicate.
 */
export const DEFAULT_REPLAY_WINDOW_MINUTES = 60;

/** Clocks of the service and of n8n may differ a little; more than this is not a clock's drift. */
export const ALLOWED_CLOCK_AHEAD_MS = 5 * 60 * 1000;

/**
 * Why an event with this `timestamp` is outside the replay window at `now`, or `undefined`
 * when it is inside: at most `windowMinutes` old and at most ALLOWED_CLOCK_AHEAD_MS ahead.
 * A window of 0 turns the check off. Both edges are inside.
 */
export function replayWindowProblem(
	timestamp: unknown,
	now: number,
	windowMinutes: number,
): string | undefined {
	if (windowMinutes <= 0) return undefined;
	const occurredAt = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
	if (Number.isNaN(occurredAt)) {
		return 'The event has no valid "timestamp", so its age cannot be checked';
	}
	const ageMs = now - occurredAt;
	if (ageMs > windowMinutes * 60_000) {
		return `The event occurred ${Math.ceil(ageMs / 60_000)} minutes ago, more than the replay window of ${windowMinutes} minutes`;
	}
	if (-ageMs > ALLOWED_CLOCK_AHEAD_MS) {
		return `The event's timestamp is ${Math.ceil(-ageMs / 60_000)} minutes in the future`;
	}
	return undefined;
}
