// Which failures are worth another attempt, for which method, and how long to wait before it.
//
// GET, PATCH and DELETE are idempotent: sending them twice leaves the service as sending them
// once, so they are retried on 5xx, network errors and time-outs. POST creates a lead or a
// message; it is retried only when the service cannot have processed it: a 429 (refused before
// processing) or a connection that was never established. A connection that broke after the
// request left (reset, time-out, socket hang up) may hide a created record, so a POST is never
// resent then.

import type { IHttpRequestMethods } from 'n8n-workflow';

import { backoffMs, type BackoffPolicy } from './backoff';
import { isRecord } from '../isRecord';

/**
 * Retries after the first attempt, for 5xx and network errors. A list of 2,000 records is 20
 * pages; with a fifth of the requests failing, a page is lost only when all 9 attempts fail
 * (p = 0.2^9 ≈ 5·10⁻⁷), so such a list completes all but about once in 100,000 runs.
 */
export const MAX_TRANSIENT_RETRIES = 8;
/** Waits between those retries: about 0.2, 0.4, 0.8, 1.6, 3.2, then 5 s. */
export const TRANSIENT_BACKOFF: BackoffPolicy = { baseMs: 200, capMs: 5_000 };
/**
 * No retry starts later than this after the first attempt started, so that a service that is
 * down fails the item within about a minute (plus the time-out of the last attempt).
 */
export const TRANSIENT_RETRY_BUDGET_MS = 60_000;

/** Error codes raised before any byte of the request reached the service. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENETDOWN',
	'EADDRNOTAVAIL',
	'UND_ERR_CONNECT_TIMEOUT',
]);

/** Error codes of a connection that failed once the request may have been sent. */
const MAYBE_SENT_CODES = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
	'ERR_STREAM_PREMATURE_CLOSE',
]);

export type NetworkFailure = {
	/** The system or client error code, e.g. ECONNREFUSED. */
	code: string | undefined;
	/** False only when the service certainly did not receive the request. */
	maybeSent: boolean;
};

/** Walks an error and its causes for the first network error code. */
export function networkErrorCode(error: unknown): string | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (isRecord(current) && !seen.has(current)) {
		seen.add(current);
		// n8n wraps the client error in a NodeApiError that carries the code as `httpCode`.
		for (const code of [current.code, current.httpCode]) {
			if (typeof code === 'string' && (NOT_SENT_CODES.has(code) || MAYBE_SENT_CODES.has(code))) {
				return code;
			}
		}
		current = current.cause;
	}
	const message = isRecord(error) && typeof error.message === 'string' ? error.message : '';
	if (/socket hang up/i.test(message)) return 'ECONNRESET';
	if (/timeout of \d+ms exceeded/i.test(message)) return 'ECONNABORTED';
	return undefined;
}

/** Whether a thrown error is a network failure, and whether the request may have been sent. */
export function classifyNetworkError(error: unknown): NetworkFailure | undefined {
	const code = networkErrorCode(error);
	if (code === undefined) return undefined;
	return { code, maybeSent: !NOT_SENT_CODES.has(code) };
}

function isIdempotent(method: IHttpRequestMethods): boolean {
	return method !== 'POST';
}

export function shouldRetryNetworkFailure(
	method: IHttpRequestMethods,
	failure: NetworkFailure,
): boolean {
	return isIdempotent(method) || !failure.maybeSent;
}

/** 5xx that may pass: 501 and 505 say the request will never work. */
export function isTransientStatus(statusCode: number): boolean {
	return statusCode >= 500 && statusCode <= 599 && statusCode !== 501 && statusCode !== 505;
}

export function shouldRetryStatus(method: IHttpRequestMethods, statusCode: number): boolean {
	return isIdempotent(method) && isTransientStatus(statusCode);
}

/** A failed attempt: an error answer or a network failure. */
export type AttemptFailure = { status: number } | { network: NetworkFailure };

export type RetryDecision =
	| { retry: true; delayMs: number }
	/** `never`: this failure is not retried for this method; `count` / `time`: the budget is spent. */
	| { retry: false; exhausted: 'never' | 'count' | 'time' };

/**
 * Whether a failed attempt is tried again, and after how long. `retries` is how many retries were
 * already made, `elapsedMs` the time since the first attempt started (waits for the rate limit
 * aside: they have their own budget). A retry is made only when its wait ends within the budget.
 */
export function decideRetry(
	method: IHttpRequestMethods,
	failure: AttemptFailure,
	progress: { retries: number; elapsedMs: number },
	random: () => number = Math.random,
): RetryDecision {
	const retried =
		'status' in failure
			? shouldRetryStatus(method, failure.status)
			: shouldRetryNetworkFailure(method, failure.network);
	if (!retried) return { retry: false, exhausted: 'never' };
	if (progress.retries >= MAX_TRANSIENT_RETRIES) return { retry: false, exhausted: 'count' };
	const delayMs = backoffMs(progress.retries, TRANSIENT_BACKOFF, random);
	if (progress.elapsedMs + delayMs > TRANSIENT_RETRY_BUDGET_MS) {
		return { retry: false, exhausted: 'time' };
	}
	return { retry: true, delayMs };
}

export function describeNetworkCode(code: string | undefined): string {
	switch (code) {
		case 'ECONNREFUSED':
			return 'the service refused the connection';
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return 'the host name of the Base URL could not be resolved';
		case 'EHOSTUNREACH':
		case 'ENETUNREACH':
		case 'ENETDOWN':
			return 'the service is unreachable from this n8n instance';
		case 'ECONNABORTED':
		case 'ETIMEDOUT':
		case 'ESOCKETTIMEDOUT':
		case 'UND_ERR_CONNECT_TIMEOUT':
		case 'UND_ERR_HEADERS_TIMEOUT':
		case 'UND_ERR_BODY_TIMEOUT':
			return 'the service did not answer in time';
		default:
			return 'the connection to the service was closed before an answer arrived';
	}
}
