// The moment and the rate-limit answers the pacing tests reason about.

import type { PacingState } from '../../../../nodes/shared/transport/pacingState';

export const NOW = Date.UTC(2025, 4, 1, 12, 0, 0);
/** NOW plus `seconds`, as the Unix seconds X-RateLimit-Reset carries. */
export const inSeconds = (seconds: number) => String(Math.floor(NOW / 1000) + seconds);

export const NOTHING_KNOWN: PacingState = { inFlight: 0, taken: 0, windowFrom: 0 };

/** Rate-limit headers of an answer: requests left, and a reset that many seconds after NOW. */
export const reportOf = (remaining: number, resetInSeconds: number) => ({
	'x-ratelimit-remaining': String(remaining),
	'x-ratelimit-reset': inSeconds(resetInSeconds),
});

/** A known window with `remaining` requests left and its reset a second after NOW. */
export const windowWith = (remaining: number, more: Partial<PacingState> = {}): PacingState => ({
	...NOTHING_KNOWN,
	remaining,
	resetAtMs: NOW + 1000,
	...more,
});
