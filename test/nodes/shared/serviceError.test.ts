import {
	explainServiceError,
	readServiceErrorBody,
	resourceOfPath,
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
	const get = (path: string) => ({ method: 'GET' as const, path });

	test('401 points at a missing, invalid or revoked key', () => {
		const e = explainServiceError(
			401,
			{ error: 'unauthorized', message: 'API key has been revoked' },
			get('/leads'),
		);
		expect(e.summary).toBe('The API key was rejected');
		expect(e.hint).toMatch(/missing, invalid or revoked/);
	});
	test('403 names restricted keys, suspended accounts and plan tiers', () => {
		const e = explainServiceError(403, { error: 'forbidden', message: 'x' }, get('/agents'));
		expect(e.hint).toMatch(/scope-restricted/);
		expect(e.hint).toMatch(/suspended/);
		expect(e.hint).toMatch(/plan tier/);
	});
	test('404 names the lead and the organization', () => {
		const e = explainServiceError(
			404,
			{ error: { code: 'lead_not_found', message: 'nope', status: 404 } },
			get('/leads/lead_x'),
		);
		expect(e.summary).toBe('Lead lead_x not found in this organization');
		expect(e.code).toBe('lead_not_found');
	});
	test('404 names an agent or a conversation the same way', () => {
		expect(explainServiceError(404, {}, get('/agents/agent_7')).summary).toBe(
			'Agent agent_7 not found in this organization',
		);
		expect(explainServiceError(404, {}, get('/conversations/conv_9')).summary).toBe(
			'Conversation conv_9 not found in this organization',
		);
	});
	test('409 on Send Message says the conversation is not open', () => {
		const e = explainServiceError(
			409,
			{ error: 'conversation_not_open', message: 'Conversation is closed' },
			{ method: 'POST', path: '/conversations/conv_1/messages' },
		);
		expect(e.summary).toBe('Conversation conv_1 is not open, so the message was not sent');
		expect(e.hint).toMatch(/Only open conversations accept messages/);
	});
	test('429 names the rate limit', () => {
		expect(explainServiceError(429, { error: 'rate_limited' }, get('/leads')).summary).toMatch(
			/rate limit/,
		);
	});
	test('5xx and unknown statuses still read well', () => {
		expect(explainServiceError(503, 'Service Unavailable', get('/leads')).summary).toBe(
			'The service failed to process the request (HTTP 503)',
		);
		expect(explainServiceError(418, 'teapot', get('/leads')).summary).toBe(
			'The service answered with HTTP 418: teapot',
		);
	});
	test("the service's words keep status, code and message", () => {
		const body = { error: 'invalid_request', message: 'limit: must be 1 to 100' };
		const e = explainServiceError(400, body, get('/leads'));
		expect(serviceWords(400, e)).toBe('HTTP 400 invalid_request: limit: must be 1 to 100');
		expect(serviceWords(502, explainServiceError(502, '', get('/leads')))).toBe(
			'HTTP 502 (no message in the response)',
		);
	});
	test('paths are read with their encoded IDs decoded', () => {
		expect(resourceOfPath('/leads/lead_%C3%B1')).toEqual({
			resource: 'Lead',
			id: 'lead_ñ',
			sub: undefined,
		});
		expect(resourceOfPath('/conversations/conv_1/messages')).toEqual({
			resource: 'Conversation',
			id: 'conv_1',
			sub: 'messages',
		});
	});
});
