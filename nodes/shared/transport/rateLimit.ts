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
import { backoffMs, type BackoffPolicy } from './backoff';

/** Longest a single request may spend waiting for the rate limit, pacing and 429s together. */
export const MAX_RATE_LIMIT_WAIT_MS = 120_000;
/** How many 429 answers one request accepts before giving up. */
export const MAX_RATE_LIMIT_RETRIES = 6;
/** Backoff after a 429 that says nothing about when to come back. */
export const RATE_LIMIT_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 30_000 };
/** Added to reset-based waits so that a whole-second reset is not hit a few ms early. */
const RESET_MARGIN_MS = 50;
/**
 * Resets closer than this belong to the same window. Resets come in whole seconds, so the next
 * window's is at least a second later; a reset sent as "seconds from now" moves a little with
 * the moment each answer left the service.
 */
const SAME_WINDOW_MS = 1_000;

/**
 * What is known about the current window of one key. Requests run in parallel (items, executions),
 * so each takes its slot before it is sent, and answers may arrive in any order.
 */
export interface PacingState {
	/**
	 * Requests left in the window: the lowest count the service reported for it, less the slots
	 * taken since. Set together with `resetAtMs`; both are undefined while nothing is known (before
	 * the first answer, and once the window has reset).
	 */
	remaining?: number;
	/** When the window that `remaining` describes ends, ms since the epoch. */
	resetAtMs?: number;
	/** Requests sent and not answered yet. */
	inFlight: number;
	/** Slots taken so far: a request's number tells which requests were sent before it. */
	taken: number;
	/** Number of the request whose answer told about the known window. */
	windowFrom: number;
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

/** Whether `state` describes the window that a request sent now goes into. */
function knowsCurrentWindow(state: PacingState, nowMs: number): boolean {
	return state.remaining !== undefined && state.resetAtMs !== undefined && state.resetAtMs > nowMs;
}

/**
 * Ms to wait before taking a slot, so that no request is spent on a certain 429: the window is
 * known to be used up and has not reset yet. Zero when requests are left or nothing is known (the
 * first request, or a window that has reset: the service tells on the next answer).
 */
export function pacingWaitMs(state: PacingState, nowMs: number): number {
	if (!knowsCurrentWindow(state, nowMs) || state.remaining! > 0) return 0;
	return state.resetAtMs! - nowMs + RESET_MARGIN_MS;
}

/**
 * Counts a request before it is sent, so that requests sent meanwhile see the window as this one
 * leaves it. Call it right after `pacingWaitMs` gave 0, with nothing awaited in between; a request
 * sent without the wait (one beyond the budget is left to the service's 429) takes a slot too.
 * Returns the request's number, for `settleSlot`.
 */
export function takeSlot(state: PacingState, nowMs: number): number {
	state.inFlight++;
	if (knowsCurrentWindow(state, nowMs)) {
		state.remaining = Math.max(0, state.remaining! - 1);
	} else {
		// The counts of a window that has reset say nothing about the new one.
		state.remaining = undefined;
		state.resetAtMs = undefined;
	}
	return ++state.taken;
}

/**
 * Frees the slot of request `request` (its number from `takeSlot`) once it was answered or
 * failed, and learns from the answer's headers. Within one window the lowest count wins: an
 * answer that arrives after later ones reports more than is left, and other clients may have used
 * some. Another reset opens a new window: its count, less the requests still on their way, which
 * it may not include. An answer changes nothing when its window is over, or when its reset is
 * older than the known one and its request was sent before the one that told about that window
 * (a late answer; sent after it, an older reset means the service changed its window).
 */
export function settleSlot(
	state: PacingState,
	request: number,
	headers: Headers,
	nowMs: number,
): void {
	state.inFlight = Math.max(0, state.inFlight - 1);
	const reported = parseRemaining(header(headers, RATE_LIMIT_REMAINING_HEADER));
	const resetAtMs = parseResetHeader(header(headers, RATE_LIMIT_RESET_HEADER), nowMs);
	if (reported === undefined || resetAtMs === undefined || resetAtMs <= nowMs) return;

	if (knowsCurrentWindow(state, nowMs)) {
		const knownResetAtMs = state.resetAtMs!;
		if (Math.abs(resetAtMs - knownResetAtMs) < SAME_WINDOW_MS) {
			state.remaining = Math.max(0, Math.min(state.remaining!, reported));
			return;
		}
		if (resetAtMs < knownResetAtMs && request < state.windowFrom) return;
	}
	state.remaining = Math.max(0, reported - state.inFlight);
	state.resetAtMs = resetAtMs;
	state.windowFrom = request;
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
		state = { inFlight: 0, taken: 0, windowFrom: 0 };
		pacingStates.set(stateKey, state);
	}
	return state;
}
