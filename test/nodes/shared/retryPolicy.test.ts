import type { IHttpRequestMethods } from 'n8n-workflow';

import {
	classifyNetworkError,
	isTransientStatus,
	networkErrorCode,
	shouldRetryNetworkFailure,
	shouldRetryStatus,
} from '../../../nodes/shared/transport/retryPolicy';

/** The shape n8n throws: a NodeApiError whose cause is the client error with the system code. */
function wrapped(code: string, message = 'failed') {
	const system = Object.assign(new Error(message), { code });
	const client = Object.assign(new Error(message), { code, cause: system });
	return Object.assign(new Error('n8n message'), { httpCode: code, cause: client });
}

describe('which status codes are retried', () => {
	test.each<[IHttpRequestMethods, number, boolean]>([
		['GET', 500, true],
		['GET', 502, true],
		['GET', 503, true],
		['GET', 504, true],
		['PATCH', 503, true],
		['GET', 501, false],
		['GET', 400, false],
		['GET', 404, false],
		['POST', 500, false],
		['POST', 503, false],
	])('%s answered %d → retried: %p', (method, status, retried) => {
		expect(shouldRetryStatus(method, status)).toBe(retried);
	});
	test('505 is not transient', () => expect(isTransientStatus(505)).toBe(false));
});

describe('which network failures are retried', () => {
	test.each<[IHttpRequestMethods, string, boolean]>([
		['GET', 'ECONNRESET', true],
		['GET', 'ECONNABORTED', true],
		['GET', 'ETIMEDOUT', true],
		['GET', 'ECONNREFUSED', true],
		['PATCH', 'ECONNRESET', true],
		['POST', 'ECONNREFUSED', true],
		['POST', 'ENOTFOUND', true],
		['POST', 'EAI_AGAIN', true],
		['POST', 'ECONNRESET', false],
		['POST', 'ECONNABORTED', false],
		['POST', 'ETIMEDOUT', false],
		['POST', 'EPIPE', false],
	])('%s failing with %s → retried: %p', (method, code, retried) => {
		const failure = classifyNetworkError(wrapped(code));
		expect(failure?.code).toBe(code);
		expect(shouldRetryNetworkFailure(method, failure!)).toBe(retried);
	});

	test('a POST whose socket hung up after sending is never resent', () => {
		const hangUp = new Error('socket hang up');
		const failure = classifyNetworkError(hangUp);
		expect(failure).toEqual({ code: 'ECONNRESET', maybeSent: true });
		expect(shouldRetryNetworkFailure('POST', failure!)).toBe(false);
	});

	test('a time-out message without a code counts as possibly sent', () => {
		expect(classifyNetworkError(new Error('timeout of 30000ms exceeded'))).toEqual({
			code: 'ECONNABORTED',
			maybeSent: true,
		});
	});

	test('errors that are not network failures are not classified', () => {
		expect(classifyNetworkError(new Error('Credentials not found'))).toBeUndefined();
		expect(networkErrorCode(undefined)).toBeUndefined();
		const circular: Record<string, unknown> = { message: 'x' };
		circular.cause = circular;
		expect(networkErrorCode(circular)).toBeUndefined();
	});
});
