// Rate-limit arithmetic, free of n8n: reading the service's headers, deciding how long to wait
// after a 429, and keeping the waits bounded. Pacing before a request lives in pacing.ts.
//
// The service allows 1,000 requests per minute per key and reports on every response how many
// are left (`X-RateLimit-Remaining`) and when the window resets (`X-RateLimit-Reset`, Unix
// seconds).

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
export const RESET_MARGIN_MS = 50;

export type Headers = Record<string, unknown>;

/** A header of an answer, whatever its case or repetition; undefined when empty. */
export function header(headers: Headers, name: string): string | undefined {
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
