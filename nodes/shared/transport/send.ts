// One attempt over HTTP through n8n's authenticated request helper. HTTP statuses come back as
// answers; only network failures are caught, to be judged by the retry policy.

import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../constants';
import type { ApiContext, Connection } from './connection';
import type { NetworkFailure } from './retryPolicy';
import { classifyNetworkError } from './retryPolicy';

/**
 * Generous for a JSON API; a slow answer to GET or PATCH is retried, to POST it is not. Fixed:
 * making it shorter for tests would take a user-visible option or an environment variable.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface Answer {
	statusCode: number;
	body: unknown;
	headers: IDataObject;
}

export type SendOutcome = { response: Answer } | { failure: NetworkFailure };

export interface Outgoing {
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	itemIndex?: number;
}

function plainHeaders(raw: unknown): IDataObject {
	const source =
		raw && typeof (raw as { toJSON?: unknown }).toJSON === 'function'
			? (raw as { toJSON: () => unknown }).toJSON()
			: raw;
	const headers: IDataObject = {};
	if (source && typeof source === 'object') {
		for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
			headers[name.toLowerCase()] = value as IDataObject[string];
		}
	}
	return headers;
}

function withoutEmptyValues(query: IDataObject | undefined): IDataObject | undefined {
	if (!query) return undefined;
	const cleaned: IDataObject = {};
	for (const [name, value] of Object.entries(query)) {
		if (value !== undefined && value !== null && value !== '') cleaned[name] = value;
	}
	return cleaned;
}

export async function sendOnce(
	this: ApiContext,
	connection: Connection,
	outgoing: Outgoing,
): Promise<SendOutcome> {
	const { method, path } = outgoing;
	const requestOptions: IHttpRequestOptions = {
		method,
		url: `${connection.baseUrl}${path}`,
		qs: withoutEmptyValues(outgoing.qs),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: REQUEST_TIMEOUT_MS,
		// The key travels in a header: it must not follow a redirect to another host.
		sendCredentialsOnCrossOriginRedirect: false,
	};
	if (outgoing.body !== undefined) requestOptions.body = outgoing.body;

	try {
		const response = await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_NAME,
			requestOptions,
		);
		return { response: { ...response, headers: plainHeaders(response.headers) } };
	} catch (error) {
		const failure = classifyNetworkError(error);
		if (failure) return { failure };
		const reason = connection.redact((error as Error).message ?? String(error));
		throw new NodeApiError(this.getNode(), { message: reason } as JsonObject, {
			message: `Could not complete ${method} ${path}: ${reason}`,
			itemIndex: outgoing.itemIndex,
		});
	}
}
