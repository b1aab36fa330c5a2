// Rate-limit arithmetic, free of n8n: reading the service's headers, deciding how long to wait
// before a request (pacing) or after a 429, and keeping the waits bounded.
//
// The service allows 1,000 requests per minute per key and reports on every response how many
// are left (`X-RateLimit-Remaining`) and when the window resets (`X-RateLimit-Reset`, Unix
// seconds). The limit is per key, so the pacing state is shared by everything that uses the same
// key against the same service in this process: all items of an execution, and other executions.

import {
	RATE_LIMIT_REMAINING_HEADER,
	RATE_LIMIT_RESET_HEADER,
	RETRY_AFTER_HEADER,
} from '../constants';

/** Longest a single request may spend waiting for the rate limit, pacing and 429s together. */
export const MAX_RATE_LIMIT_WAIT_MS = 120_000;
/** How many 429 answers one request accepts before giving up. */
export const MAX_RATE_LIMIT_RETRIES = 6;
/** Backoff after a 429 that says nothing about when to come back. */
export const RATE_LIMIT_BACKOFF = { baseMs: 1_000, capMs: 30_000 } as const;
/** Backoff after a 5xx or a network error. */
export const TRANSIENT_BACKOFF = { baseMs: 400, capMs: 8_000 } as const;
/** Added to reset-based waits so that a whole-second reset is not hit a few ms early. */
const RESET_MARGIN_MS = 50;

export interface PacingState {
	/** Requests left in the current window, as last reported. */
	remaining?: number;
	/** When the current window ends, ms since the epoch. */
	resetAtMs?: number;
}

export type Headers = Record<string, unknown>;

function header(headers: Headers, name: string): string | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
	if (value === undefined || value === null || value === '') return undefined;
	return String(value);
}

/**
 * `X-RateLimit-Reset` as ms since the epoch. The specification says Unix seconds; a value that
 * is clearly in milliseconds, or small enough to be "seconds from now", is read that way too.
 */
export function parseResetHeader(value: string | undefined, nowMs: number): number | undefined {
	if (value === undefined) return undefined;
	const number = Number(value.trim());
	if (!Number.isFinite(number) || number < 0) return undefined;
	if (number >= 1e12) return number; // already milliseconds
	if (number >= 1e9) return number * 1000; // Unix seconds, as specified
	return nowMs + number * 1000; // a delta in seconds
}

/** `Retry-After` as ms to wait: delta seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
	if (value === undefined) return undefined;
	const trimmed = value.trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
	const at = Date.parse(trimmed);
	if (Number.isNaN(at)) return undefined;
	return Math.max(0, at - nowMs);
}

export function parseRemaining(value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const number = Number(value.trim());
	return Number.isFinite(number) ? number : undefined;
}

/** Updates the shared state from any response; a response without the headers changes nothing. */
export function recordRateLimitHeaders(state: PacingState, headers: Headers, nowMs: number): void {
	const remaining = parseRemaining(header(headers, RATE_LIMIT_REMAINING_HEADER));
	const resetAtMs = parseResetHeader(header(headers, RATE_LIMIT_RESET_HEADER), nowMs);
	if (remaining !== undefined) state.remaining = remaining;
	if (resetAtMs !== undefined) state.resetAtMs = resetAtMs;
}

/**
 * Ms to wait before sending so that no request is spent on a certain 429: the window is used up
 * and has not reset yet. Zero when requests are left or nothing is known.
 */
export function pacingWaitMs(state: PacingState, nowMs: number): number {
	if (state.remaining === undefined || state.remaining > 0) return 0;
	if (state.resetAtMs === undefined || state.resetAtMs <= nowMs) return 0;
	return state.resetAtMs - nowMs + RESET_MARGIN_MS;
}

/** After the wait the old counts say nothing about the new window. */
export function forgetWindow(state: PacingState): void {
	state.remaining = undefined;
	state.resetAtMs = undefined;
}

/** Exponential backoff with jitter: between half and all of base·2^attempt, capped. */
export function backoffMs(
	retry: number,
	policy: { baseMs: number; capMs: number },
	random: () => number = Math.random,
): number {
	const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** retry);
	return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

export interface RateLimitWait {
	waitMs: number;
	/** What the wait was based on, for the log and the error message. */
	basis: 'X-RateLimit-Reset' | 'Retry-After' | 'backoff';
}

/**
 * How long to wait after a 429. When the window is used up (`X-RateLimit-Remaining` 0 or
 * absent) the wait runs until `X-RateLimit-Reset`, as the specification says. A 429 while the
 * window still has requests left is about something else, so `Retry-After` is honoured first.
 * Without either header (or with a reset already past, e.g. clock skew): exponential backoff.
 */
export function waitAfterRateLimit(
	headers: Headers,
	retry: number,
	nowMs: number,
	random: () => number = Math.random,
): RateLimitWait {
	const remaining = parseRemaining(header(headers, RATE_LIMIT_REMAINING_HEADER));
	const resetAtMs = parseResetHeader(header(headers, RATE_LIMIT_RESET_HEADER), nowMs);
	const untilReset =
		resetAtMs !== undefined && resetAtMs > nowMs ? resetAtMs - nowMs + RESET_MARGIN_MS : undefined;
	const retryAfterMs = parseRetryAfter(header(headers, RETRY_AFTER_HEADER), nowMs);
	const windowUsedUp = remaining === undefined || remaining <= 0;

	if (untilReset !== undefined && windowUsedUp) {
		return { waitMs: untilReset, basis: 'X-RateLimit-Reset' };
	}
	if (retryAfterMs !== undefined && retryAfterMs > 0) {
		return { waitMs: retryAfterMs, basis: 'Retry-After' };
	}
	if (untilReset !== undefined) return { waitMs: untilReset, basis: 'X-RateLimit-Reset' };
	return { waitMs: backoffMs(retry, RATE_LIMIT_BACKOFF, random), basis: 'backoff' };
}

/** The total a request may still wait; a wait that does not fit is not started at all. */
export class WaitBudget {
	private spentMs = 0;

	constructor(readonly limitMs: number = MAX_RATE_LIMIT_WAIT_MS) {}

	fits(waitMs: number): boolean {
		return this.spentMs + waitMs <= this.limitMs;
	}

	spend(waitMs: number): void {
		this.spentMs += waitMs;
	}

	get spent(): number {
		return this.spentMs;
	}
}

const pacingStates = new Map<string, PacingState>();

/** The state for one key at one service; `stateKey` never contains the key itself. */
export function pacingStateFor(stateKey: string): PacingState {
	let state = pacingStates.get(stateKey);
	if (!state) {
		state = {};
		pacingStates.set(stateKey, state);
	}
	return state;
}
