// Which failures are worth another attempt, for which method.
//
// GET and PATCH are idempotent: sending them twice leaves the service as sending them once, so
// they are retried on 5xx, network errors and time-outs. POST creates a lead or a message; it is
// retried only when the service cannot have processed it: a 429 (refused before processing) or a
// connection that was never established. A connection that broke after the request left (reset,
// time-out, socket hang up) may hide a created record, so a POST is never resent then.

import type { IHttpRequestMethods } from 'n8n-workflow';

/** Retries after the first attempt, for 5xx and network errors. */
export const MAX_TRANSIENT_RETRIES = 3;

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

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null;
}

/** Walks an error and its causes for the first network error code. */
export function networkErrorCode(error: unknown): string | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (isObject(current) && !seen.has(current)) {
		seen.add(current);
		// n8n wraps the client error in a NodeApiError that carries the code as `httpCode`.
		for (const code of [current.code, current.httpCode]) {
			if (typeof code === 'string' && (NOT_SENT_CODES.has(code) || MAYBE_SENT_CODES.has(code))) {
				return code;
			}
		}
		current = current.cause;
	}
	const message = isObject(error) && typeof error.message === 'string' ? error.message : '';
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
