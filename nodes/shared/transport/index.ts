// The only door to the service. One request goes through `apiRequest`, which owns
// authentication, pacing, waits after 429, retries of transient faults and the mapping of error
// answers to NodeApiError. Lists go through `iterateListPages`, which follows the cursor, or
// `collectListPages`, which keeps every record it yields.

import { createHash } from 'crypto';
import type {
	FunctionsBase,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { normalizeBaseUrl } from '../baseUrl';
import { CREDENTIAL_NAME } from '../constants';
import type { ListPlan } from './pagination';
import { nextPageSize, pageQuery, readListPage, recordsToKeep, stopAfterPage } from './pagination';
import type { Headers, PacingState } from './rateLimit';
import {
	MAX_RATE_LIMIT_RETRIES,
	WaitBudget,
	pacingStateFor,
	pacingWaitMs,
	settleSlot,
	takeSlot,
	waitAfterRateLimit,
} from './rateLimit';
import type { AttemptFailure, NetworkFailure } from './retryPolicy';
import {
	MAX_TRANSIENT_RETRIES,
	classifyNetworkError,
	decideRetry,
	describeNetworkCode,
} from './retryPolicy';
import { explainServiceError, serviceWords } from './serviceError';

export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;

export interface ApiRequestOptions {
	qs?: IDataObject;
	body?: IDataObject;
	/** For error context. */
	itemIndex?: number;
}

export interface ApiResponse<T> {
	statusCode: number;
	body: T;
	headers: IDataObject;
}

/**
 * Generous for a JSON API; a slow answer to GET or PATCH is retried, to POST it is not. Fixed:
 * making it shorter for tests would take a user-visible option or an environment variable.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Waits are slept in slices so that a cancelled execution stops waiting promptly. */
const WAIT_SLICE_MS = 1_000;

interface Connection {
	baseUrl: string;
	pacing: PacingState;
	/** Removes the API key from any text that leaves this module. */
	redact: (text: string) => string;
}

function redactor(apiKey: string): (text: string) => string {
	if (apiKey.length < 4) return (text) => text;
	return (text) => text.split(apiKey).join('[redacted]');
}

/**
 * Base URL and pacing state of the credential. The key is read only to tell keys apart: the
 * state is keyed by a truncated hash, and the key itself reaches the service through the
 * credential's `authenticate`.
 */
// One credential read per execution context and item: in a running n8n `getCredentials` is a
// database read plus decryption (~0.45 ms), which a Return All would otherwise pay on every page.
const connections = new WeakMap<object, Map<number | undefined, Promise<Connection>>>();

function connectionOf(this: ApiContext, itemIndex?: number): Promise<Connection> {
	let byItem = connections.get(this);
	if (!byItem) {
		byItem = new Map();
		connections.set(this, byItem);
	}
	let connection = byItem.get(itemIndex);
	if (!connection) {
		connection = readConnection.call(this, itemIndex);
		// A failed read (say, a Base URL without /v1) is not remembered: the next item reads again.
		connection.catch(() => byItem.delete(itemIndex));
		byItem.set(itemIndex, connection);
	}
	return connection;
}

async function readConnection(this: ApiContext, itemIndex?: number): Promise<Connection> {
	const credentials = await (this as FunctionsBase).getCredentials<IDataObject>(
		CREDENTIAL_NAME,
		itemIndex,
	);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	let baseUrl: string;
	try {
		baseUrl = normalizeBaseUrl(String(credentials.baseUrl ?? ''));
	} catch (error) {
		throw new NodeOperationError(this.getNode(), (error as Error).message, { itemIndex });
	}
	const fingerprint = createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
	return {
		baseUrl,
		pacing: pacingStateFor(`${baseUrl}#${fingerprint}`),
		redact: redactor(apiKey),
	};
}

async function waitFor(this: ApiContext, ms: number, itemIndex?: number): Promise<void> {
	const signal = 'getExecutionCancelSignal' in this ? this.getExecutionCancelSignal() : undefined;
	let left = ms;
	while (left > 0) {
		if (signal?.aborted) {
			throw new NodeOperationError(this.getNode(), 'The execution was cancelled while waiting', {
				itemIndex,
			});
		}
		const slice = Math.min(left, WAIT_SLICE_MS);
		await sleep(slice);
		left -= slice;
	}
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

/** Joins parts into sentences without doubling the full stops some of them end with. */
function sentences(...parts: Array<string | undefined>): string {
	return parts
		.filter((part): part is string => Boolean(part))
		.map((part) => part.trim().replace(/\.$/, ''))
		.join('. ')
		.concat('.');
}

function serviceError(
	node: INode,
	statusCode: number,
	body: unknown,
	request: { method: IHttpRequestMethods; path: string; itemIndex?: number },
	redact: (text: string) => string,
	note?: string,
): NodeApiError {
	const explanation = explainServiceError(statusCode, body, request);
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

function networkError(
	node: INode,
	failure: NetworkFailure,
	request: { method: IHttpRequestMethods; path: string; itemIndex?: number },
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

type SendOutcome =
	| { response: { statusCode: number; body: unknown; headers: IDataObject } }
	| { failure: NetworkFailure };

/** One attempt. HTTP statuses come back as answers; only network failures are caught here. */
async function sendOnce(
	this: ApiContext,
	connection: Connection,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions,
): Promise<SendOutcome> {
	const requestOptions: IHttpRequestOptions = {
		method,
		url: `${connection.baseUrl}${path}`,
		qs: withoutEmptyValues(options.qs),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: REQUEST_TIMEOUT_MS,
		// The key travels in a header: it must not follow a redirect to another host.
		sendCredentialsOnCrossOriginRedirect: false,
	};
	if (options.body !== undefined) requestOptions.body = options.body;

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
			itemIndex: options.itemIndex,
		});
	}
}

/**
 * Takes a slot of the key's rate-limit window, first waiting for the reset while the window is
 * known to be used up (by this request's neighbours too: they take their slots before sending).
 */
async function takeSlotBeforeSending(
	this: ApiContext,
	connection: Connection,
	budget: WaitBudget,
	itemIndex?: number,
): Promise<number> {
	for (;;) {
		const pacing = pacingWaitMs(connection.pacing, Date.now());
		// Pacing is only a saving: a wait that does not fit the budget is left to the service,
		// which answers 429 with a reset time the 429 handling can judge.
		if (pacing === 0 || !budget.fits(pacing)) break;
		this.logger.debug(`Rate limit used up: waiting ${pacing} ms for the window to reset`);
		budget.spend(pacing);
		await waitFor.call(this, pacing, itemIndex);
		// Neighbours that woke up first may have used up the new window already: look again.
	}
	return takeSlot(connection.pacing, Date.now());
}

/** One attempt in the slot taken for it; the slot is freed whatever the outcome. */
async function sendInSlot(
	this: ApiContext,
	connection: Connection,
	slot: number,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions,
): Promise<SendOutcome> {
	let headers: Headers = {};
	try {
		const outcome = await sendOnce.call(this, connection, method, path, options);
		if ('response' in outcome) headers = outcome.response.headers as Headers;
		return outcome;
	} finally {
		settleSlot(connection.pacing, slot, headers, Date.now());
	}
}

/**
 * One request to the service, with the retry policy of retryPolicy.ts and the waits of
 * rateLimit.ts. Resolves with any 2xx answer; throws NodeApiError for everything else.
 */
export async function apiRequest<T = IDataObject>(
	this: ApiContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<ApiResponse<T>> {
	const { itemIndex } = options;
	const connection = await connectionOf.call(this, itemIndex);
	const request = { method, path, itemIndex };
	const budget = new WaitBudget();
	const startedAt = Date.now();
	let transientRetries = 0;
	let rateLimitRetries = 0;

	/** Waits before the next attempt when the retry policy allows one; false when it does not. */
	const retriedAfter = async (failure: AttemptFailure, reason: string): Promise<boolean> => {
		const decision = decideRetry(method, failure, {
			retries: transientRetries,
			// Waits for the rate limit have their own budget.
			elapsedMs: Date.now() - startedAt - budget.spent,
		});
		if (!decision.retry) return false;
		transientRetries++;
		this.logger.warn(
			`${method} ${path}: ${reason}; retry ${transientRetries} of ${MAX_TRANSIENT_RETRIES} in ${decision.delayMs} ms`,
		);
		await waitFor.call(this, decision.delayMs, itemIndex);
		return true;
	};

	for (;;) {
		const slot = await takeSlotBeforeSending.call(this, connection, budget, itemIndex);
		const outcome = await sendInSlot.call(this, connection, slot, method, path, options);

		if ('failure' in outcome) {
			const { failure } = outcome;
			const reason = `${describeNetworkCode(failure.code)} (${failure.code})`;
			if (await retriedAfter({ network: failure }, reason)) continue;
			throw networkError(this.getNode(), failure, request, transientRetries + 1);
		}

		const { statusCode, body, headers } = outcome.response;
		if (statusCode >= 200 && statusCode < 300) return { statusCode, body: body as T, headers };

		if (statusCode === 429) {
			const { waitMs, basis } = waitAfterRateLimit(
				headers as Headers,
				rateLimitRetries,
				Date.now(),
			);
			if (rateLimitRetries >= MAX_RATE_LIMIT_RETRIES || !budget.fits(waitMs)) {
				const waited = Math.round(budget.spent / 1000);
				const note =
					rateLimitRetries >= MAX_RATE_LIMIT_RETRIES
						? `Gave up after ${rateLimitRetries} retries and ${waited} s of waiting`
						: `Gave up because the service asked for a wait of ${Math.ceil(waitMs / 1000)} s, beyond the ${Math.round(budget.limitMs / 1000)} s this node waits per request (${waited} s already waited)`;
				throw serviceError(this.getNode(), statusCode, body, request, connection.redact, note);
			}
			rateLimitRetries++;
			budget.spend(waitMs);
			this.logger.warn(
				`${method} ${path}: rate limited (429); waiting ${waitMs} ms (${basis}), retry ${rateLimitRetries} of ${MAX_RATE_LIMIT_RETRIES}`,
			);
			await waitFor.call(this, waitMs, itemIndex);
			continue;
		}

		if (await retriedAfter({ status: statusCode }, `HTTP ${statusCode}`)) continue;

		const note =
			transientRetries > 0
				? `Failed again after ${transientRetries} retries over ${Math.round((Date.now() - startedAt) / 1000)} s`
				: undefined;
		throw serviceError(this.getNode(), statusCode, body, request, connection.redact, note);
	}
}

function withPageContext(
	node: INode,
	error: unknown,
	where: { path: string; page: number; recordsRead: number; itemIndex?: number },
): NodeApiError | NodeOperationError {
	const context = `stopped at page ${where.page} of ${where.path} after ${where.recordsRead} records were read; none are returned`;
	if (error instanceof NodeApiError) {
		return new NodeApiError(node, { message: error.message } as JsonObject, {
			message: `${error.message} (${context})`,
			description: error.description ?? undefined,
			httpCode: error.httpCode ?? undefined,
			itemIndex: where.itemIndex,
		});
	}
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(node, `${message} (${context})`, {
		description: error instanceof NodeOperationError ? (error.description ?? undefined) : undefined,
		itemIndex: where.itemIndex,
	});
}

export interface ListReadOptions {
	returnAll: boolean;
	limit?: number;
	itemIndex?: number;
}

/**
 * Reads a list page by page. With `returnAll` it follows `next_cursor` until `has_more` is false;
 * with a `limit` it stops as soon as that many records were read and never asks for more than
 * it keeps. A failing page fails the whole list (naming the page and the records read so far):
 * a partial list is never presented as complete.
 */
export async function* iterateListPages<T>(
	this: ApiContext,
	path: string,
	query: IDataObject,
	options: ListReadOptions,
): AsyncGenerator<T[]> {
	const plan: ListPlan = { returnAll: options.returnAll, limit: options.limit };
	const { itemIndex } = options;
	let cursor: string | undefined;
	let recordsRead = 0;

	for (let pageNumber = 1; ; pageNumber++) {
		const size = nextPageSize(plan, recordsRead);
		if (size === 0) return;

		let body: unknown;
		try {
			({ body } = await apiRequest.call(this, 'GET', path, {
				qs: pageQuery(query, cursor, size),
				itemIndex,
			}));
		} catch (error) {
			throw withPageContext(this.getNode(), error, {
				path,
				page: pageNumber,
				recordsRead,
				itemIndex,
			});
		}

		const page = readListPage<T>(body);
		if (!page) {
			throw new NodeApiError(this.getNode(), { message: 'Not a list response' } as JsonObject, {
				message: `The service answered GET ${path} without a "data" list (page ${pageNumber}, ${recordsRead} records read before it; none are returned)`,
				itemIndex,
			});
		}

		const keep = recordsToKeep(plan, recordsRead, page.records.length);
		const records = keep < page.records.length ? page.records.slice(0, keep) : page.records;
		recordsRead += records.length;
		if (records.length > 0) yield records;

		if (stopAfterPage(plan, recordsRead, page)) return;
		if (page.nextCursor === cursor) {
			throw new NodeApiError(this.getNode(), { message: 'Cursor did not advance' } as JsonObject, {
				message: `The service returned the same cursor twice for GET ${path} (page ${pageNumber}, ${recordsRead} records read; none are returned)`,
				itemIndex,
			});
		}
		cursor = page.nextCursor;
	}
}

/**
 * Every record of a list, for an operation that outputs them as they come: the array filled here,
 * page by page, is the output itself, so no page is copied again.
 */
export async function collectListPages(
	this: ApiContext,
	path: string,
	query: IDataObject,
	options: ListReadOptions,
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	const pages = iterateListPages<IDataObject>;
	for await (const page of pages.call(this, path, query, options)) {
		for (const record of page) records.push(record);
	}
	return records;
}
