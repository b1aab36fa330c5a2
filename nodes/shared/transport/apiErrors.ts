// The errors a request ends with, as n8n shows them: the service's status, code and message, what
// to do next, and never the API key.

import type { IHttpRequestMethods, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { NetworkFailure } from './retryPolicy';
import { describeNetworkCode } from './retryPolicy';
import type { ErrorContext } from './serviceError';
import { explainServiceError, serviceWords } from './serviceError';

export interface RequestInfo extends ErrorContext {
	method: IHttpRequestMethods;
	path: string;
	itemIndex?: number;
}

/** Joins parts into sentences without doubling the full stops some of them end with. */
function sentences(...parts: Array<string | undefined>): string {
	return parts
		.filter((part): part is string => Boolean(part))
		.map((part) => part.trim().replace(/\.$/, ''))
		.join('. ')
		.concat('.');
}

export function serviceError(
	node: INode,
	answer: { statusCode: number; body: unknown },
	request: RequestInfo,
	redact: (text: string) => string,
	note?: string,
): NodeApiError {
	const { statusCode } = answer;
	const explanation = explainServiceError(statusCode, answer.body, request);
	const description = sentences(serviceWords(statusCode, explanation), explanation.hint, note);
	return new NodeApiError(
		node,
		{
			status: statusCode,
			error: explanation.code ?? null,
			message: redact(explanation.message ?? ''),
		} as JsonObject,
		{
			message: redact(explanation.summary),
			description: redact(description),
			httpCode: String(statusCode),
			itemIndex: request.itemIndex,
		},
	);
}

export function networkError(
	node: INode,
	failure: NetworkFailure,
	request: RequestInfo,
	attempts: number,
): NodeApiError {
	const what = describeNetworkCode(failure.code);
	const notResent =
		request.method === 'POST' && failure.maybeSent
			? ' The request may have been processed, so it was not sent again (that could create a duplicate): check the service before running this item again.'
			: '';
	const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
	return new NodeApiError(
		node,
		{ networkCode: failure.code ?? 'unknown', message: what } as JsonObject,
		{
			message: `Could not complete ${request.method} ${request.path}: ${what}${tries}`,
			description: `Network error code: ${failure.code ?? 'unknown'}.${notResent}`,
			itemIndex: request.itemIndex,
		},
	);
}
