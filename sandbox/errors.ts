// Error bodies: the flat shape `{error, message}` everywhere, except the nested shape the
// specification gives for a missing lead.

import { RETRY_AFTER_HEADER } from './constants';

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
		readonly headers: Record<string, string> = {},
	) {
		super(
			typeof body === 'object' && body && 'message' in body ? String(body.message) : String(status),
		);
	}
}

function flat(status: number, error: string, message: string): ApiError {
	return new ApiError(status, { error, message });
}

/** 400: the message names the field and says why. */
export function invalidRequest(message: string): ApiError {
	return flat(400, 'invalid_request', message);
}

export function invalidField(field: string, why: string): ApiError {
	return invalidRequest(`${field}: ${why}`);
}

export function unauthorized(message: string): ApiError {
	return flat(401, 'unauthorized', message);
}

export function forbidden(message: string): ApiError {
	return flat(403, 'forbidden', message);
}

export function leadNotFound(id: string): ApiError {
	return new ApiError(404, {
		error: { code: 'lead_not_found', message: `Lead ${id} not found`, status: 404 },
	});
}

export function notFound(message: string): ApiError {
	return flat(404, 'not_found', message);
}

export function methodNotAllowed(allowed: string[]): ApiError {
	return new ApiError(
		405,
		{ error: 'method_not_allowed', message: `Allowed methods: ${allowed.join(', ')}` },
		{ Allow: allowed.join(', ') },
	);
}

export function conversationNotOpen(id: string, status: string): ApiError {
	return flat(
		409,
		'conversation_not_open',
		`Conversation ${id} is ${status}; messages can only be posted to open conversations`,
	);
}

export function payloadTooLarge(limit: number): ApiError {
	return flat(413, 'payload_too_large', `Request body exceeds ${limit} bytes`);
}

export function unsupportedMediaType(): ApiError {
	return flat(
		415,
		'unsupported_media_type',
		'POST and PATCH requests need Content-Type: application/json',
	);
}

export function rateLimited(retryAfterSeconds: number): ApiError {
	return new ApiError(
		429,
		{
			error: 'rate_limited',
			message: 'Rate limit exceeded; retry after the time in X-RateLimit-Reset',
		},
		{ [RETRY_AFTER_HEADER]: String(retryAfterSeconds) },
	);
}

export function internalError(message: string): ApiError {
	return flat(500, 'internal_error', message);
}
