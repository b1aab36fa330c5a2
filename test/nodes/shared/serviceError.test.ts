import {
	explainServiceError,
	readServiceErrorBody,
	serviceWords,
} from '../../../nodes/shared/transport/serviceError';

describe('reading any error body', () => {
	test.each([
		[
			'flat shape',
			{ error: 'unauthorized', message: 'Invalid API key' },
			{ code: 'unauthorized', message: 'Invalid API key' },
		],
		[
			'nested shape',
			{ error: { code: 'lead_not_found', message: 'Lead lead_x does not exist', status: 404 } },
			{ code: 'lead_not_found', message: 'Lead lead_x does not exist' },
		],
		[
			'JSON text',
			'{"error":"forbidden","message":"Suspended"}',
			{ code: 'forbidden', message: 'Suspended' },
		],
		['plain text', 'Bad Gateway', { message: 'Bad Gateway' }],
		['empty text', '', {}],
		['no body', undefined, {}],
		['a list', [1, 2], {}],
		['a buffer', Buffer.from('upstream timeout'), { message: 'upstream timeout' }],
	])('%s', (_case, body, expected) => {
		expect(readServiceErrorBody(body)).toEqual(expected);
	});

	test('long plain text is shortened', () => {
		const { message } = readServiceErrorBody('<html>' + 'x'.repeat(1000));
		expect(message!.length).toBeLessThanOrEqual(301);
		expect(message!.endsWith('…')).toBe(true);
	});
});

describe('hints by status', () => {
	test('401 points at a missing, invalid or revoked key', () => {
		const e = explainServiceError(
			401,
			{ error: 'unauthorized', message: 'API key has been revoked' },
			{},
		);
		expect(e.summary).toBe('The API key was rejected');
		expect(e.hint).toMatch(/missing, invalid or revoked/);
	});
	test('403 names restricted keys, suspended accounts and plan tiers', () => {
		const e = explainServiceError(403, { error: 'forbidden', message: 'x' }, {});
		expect(e.hint).toMatch(/scope-restricted/);
		expect(e.hint).toMatch(/suspended/);
		expect(e.hint).toMatch(/plan tier/);
	});
	test('404 names the record the operation says the request is about', () => {
		const e = explainServiceError(
			404,
			{ error: { code: 'lead_not_found', message: 'nope', status: 404 } },
			{ about: 'Lead lead_x' },
		);
		expect(e.summary).toBe('Lead lead_x not found in this organization');
		expect(e.hint).toMatch(/another organization/);
		expect(e.code).toBe('lead_not_found');
	});
	test('404 about nothing in particular points at the ID and the Base URL', () => {
		const e = explainServiceError(404, {}, {});
		expect(e.summary).toBe('The service did not find what was requested');
		expect(e.hint).toMatch(/must end in \/v1/);
	});
	test("an operation's own words for a status win over the generic ones", () => {
		const words = { summary: 'Conversation conv_1 is not open', hint: 'Only open ones.' };
		const e = explainServiceError(
			409,
			{ error: 'conversation_not_open', message: 'Conversation is closed' },
			{ about: 'Conversation conv_1', whenStatus: { 409: words } },
		);
		expect(e.summary).toBe(words.summary);
		expect(e.hint).toBe(words.hint);
		expect(e.message).toBe('Conversation is closed');
		// Other statuses keep the generic words.
		expect(explainServiceError(409, {}, {}).summary).toMatch(/refused the request as conflicting/);
	});
	test('429 names the rate limit', () => {
		expect(explainServiceError(429, { error: 'rate_limited' }, {}).summary).toMatch(/rate limit/);
	});
	test('5xx and unknown statuses still read well', () => {
		expect(explainServiceError(503, 'Service Unavailable', {}).summary).toBe(
			'The service failed to process the request (HTTP 503)',
		);
		expect(explainServiceError(418, 'teapot', {}).summary).toBe(
			'The service answered with HTTP 418: teapot',
		);
	});
	test("the service's words keep status, code and message", () => {
		const body = { error: 'invalid_request', message: 'limit: must be 1 to 100' };
		const e = explainServiceError(400, body, {});
		expect(serviceWords(400, e)).toBe('HTTP 400 invalid_request: limit: must be 1 to 100');
		expect(serviceWords(502, explainServiceError(502, '', {}))).toBe(
			'HTTP 502 (no message in the response)',
		);
	});
});
