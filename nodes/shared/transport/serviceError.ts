// Turns any error answer of the service into what a user needs: the status, the service's code
// and message, and a hint of what to do. The specification has two body shapes (flat `error` +
// `message`; nested `error.code/message/status`); anything else (plain text, HTML from a proxy,
// an empty body) still yields a readable message.

import { isRecord } from '../isRecord';

export interface ServiceErrorBody {
	code?: string;
	message?: string;
}

export interface ServiceErrorExplanation {
	/** The headline shown to the user. */
	summary: string;
	/** What to check or do next. */
	hint: string;
	/** The service's own words, when it sent any. */
	code?: string;
	message?: string;
}

const MAX_TEXT_BODY = 300;

function text(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number') return String(value);
	return undefined;
}

function fromObject(body: Record<string, unknown>): ServiceErrorBody {
	const error = body.error;
	if (isRecord(error)) {
		// Nested shape: { error: { code, message, status } }
		return { code: text(error.code), message: text(error.message) ?? text(body.message) };
	}
	// Flat shape: { error: "code", message }; other keys are read as a courtesy.
	return {
		code: text(error) ?? text(body.code),
		message: text(body.message) ?? text(body.detail) ?? text(body.error_description),
	};
}

/** Reads the service's error code and message from whatever body arrived. */
export function readServiceErrorBody(body: unknown): ServiceErrorBody {
	if (Buffer.isBuffer(body)) return readServiceErrorBody(body.toString('utf8'));
	if (isRecord(body)) return fromObject(body);
	if (typeof body === 'string') {
		const trimmed = body.trim();
		if (trimmed === '') return {};
		try {
			const parsed: unknown = JSON.parse(trimmed);
			if (isRecord(parsed)) return fromObject(parsed);
		} catch {
			// Not JSON: the text itself is the message.
		}
		const shortened =
			trimmed.length > MAX_TEXT_BODY ? `${trimmed.slice(0, MAX_TEXT_BODY)}…` : trimmed;
		return { message: shortened };
	}
	return {};
}

/** Words of an operation for an error status, where it knows better than the transport. */
export interface StatusWords {
	summary: string;
	hint: string;
}

/** What an operation tells the transport about a request, for its error messages. */
export interface ErrorContext {
	/** The record the request is about, as the user knows it ("Lead lead_x"): a 404 names it. */
	about?: string;
	/** What particular statuses mean for this operation, e.g. Send Message's 409. */
	whenStatus?: Partial<Record<number, StatusWords>>;
}

/** The headline and hint for an error status; the service's words are added by the caller. */
export function explainServiceError(
	statusCode: number,
	body: unknown,
	context: ErrorContext = {},
): ServiceErrorExplanation {
	const { code, message } = readServiceErrorBody(body);
	const said = message ?? code;
	const explain = (summary: string, hint: string): ServiceErrorExplanation => ({
		summary,
		hint,
		code,
		message,
	});
	const own = context.whenStatus?.[statusCode];
	if (own) return explain(own.summary, own.hint);

	switch (statusCode) {
		case 400:
			return explain(
				`The service rejected the request as invalid${said ? `: ${said}` : ''}`,
				'Check the field named in the message against the allowed values.',
			);
		case 401:
			return explain(
				'The API key was rejected',
				'The API key is missing, invalid or revoked. Create a new key in the dashboard (Settings → API Keys) and update the credential.',
			);
		case 403:
			return explain(
				'The API key is not allowed to do this',
				'The key may be scope-restricted (restricted keys exist on the Enterprise plan), the account may be suspended, or this needs a higher plan tier (Growth, Advanced, Enterprise).',
			);
		case 404:
			if (context.about) {
				return explain(
					`${context.about} not found in this organization`,
					'Check the ID. A record of another organization is reported as not found too: make sure the API key belongs to the right organization.',
				);
			}
			return explain(
				'The service did not find what was requested',
				'Check the ID, if the request names one, and the Base URL of the credential: it must end in /v1.',
			);
		case 409:
			return explain(
				`The service refused the request as conflicting${said ? `: ${said}` : ''}`,
				'The record is not in a state that allows this change.',
			);
		case 413:
			return explain('The request is too large for the service', 'Shorten the text fields.');
		case 429:
			return explain(
				'The rate limit of the API key was reached',
				'The service allows 1,000 requests per minute per API key. Spread the work over time or split it across runs.',
			);
		default:
			if (statusCode >= 500) {
				return explain(
					`The service failed to process the request (HTTP ${statusCode})`,
					'This is usually temporary. Try again later.',
				);
			}
			return explain(
				`The service answered with HTTP ${statusCode}${said ? `: ${said}` : ''}`,
				'Check the request parameters.',
			);
	}
}

/** "HTTP 404 lead_not_found: Lead lead_x does not exist" — the service's own words. */
export function serviceWords(statusCode: number, explanation: ServiceErrorExplanation): string {
	const parts = [`HTTP ${statusCode}`];
	if (explanation.code) parts.push(explanation.code);
	const head = parts.join(' ');
	return explanation.message
		? `${head}: ${explanation.message}`
		: `${head} (no message in the response)`;
}
