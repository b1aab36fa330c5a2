// One request to the service with its retries: transient faults per retryPolicy.ts, 429 answers
// per rateLimit.ts; the pacing before each attempt is pacer.ts's.

import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { RequestInfo } from './apiErrors';
import { networkError, serviceError } from './apiErrors';
import type { ApiContext, Connection } from './connection';
import { connectionOf } from './connection';
import { delays, waitFor } from './delays';
import { sendPaced } from './pacer';
import type { Headers } from './rateLimit';
import { MAX_RATE_LIMIT_RETRIES, WaitBudget, waitAfterRateLimit } from './rateLimit';
import type { AttemptFailure, NetworkFailure } from './retryPolicy';
import { MAX_TRANSIENT_RETRIES, decideRetry, describeNetworkCode } from './retryPolicy';
import type { Answer } from './send';
import type { ErrorContext } from './serviceError';

export interface ApiRequestOptions extends ErrorContext {
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

/** The attempts of one request so far: retries made and time spent. */
class Attempts {
	transientRetries = 0;
	rateLimitRetries = 0;
	/** Waits for the rate limit, pacing and 429s together. */
	readonly budget = new WaitBudget();
	readonly startedAt = delays.now();

	constructor(
		readonly context: ApiContext,
		readonly connection: Connection,
		readonly request: RequestInfo,
	) {}

	private get node() {
		return this.context.getNode();
	}

	/** The wait before retrying a transient failure; throws `fail()` when none is allowed. */
	private retryAfter(failure: AttemptFailure, reason: string, fail: () => Error): number {
		const { method, path } = this.request;
		const decision = decideRetry(method, failure, {
			retries: this.transientRetries,
			// Waits for the rate limit have their own budget.
			elapsedMs: delays.now() - this.startedAt - this.budget.spent,
		});
		if (!decision.retry) throw fail();
		this.transientRetries++;
		this.context.logger.warn(
			`${method} ${path}: ${reason}; retry ${this.transientRetries} of ${MAX_TRANSIENT_RETRIES} in ${decision.delayMs} ms`,
		);
		return decision.delayMs;
	}

	afterNetworkFailure(failure: NetworkFailure): number {
		const reason = `${describeNetworkCode(failure.code)} (${failure.code})`;
		return this.retryAfter({ network: failure }, reason, () =>
			networkError(this.node, failure, this.request, this.transientRetries + 1),
		);
	}

	afterErrorStatus(answer: Answer): number {
		return this.retryAfter({ status: answer.statusCode }, `HTTP ${answer.statusCode}`, () => {
			const note =
				this.transientRetries > 0
					? `Failed again after ${this.transientRetries} retries over ${Math.round((delays.now() - this.startedAt) / 1000)} s`
					: undefined;
			return serviceError(this.node, answer, this.request, this.connection.redact, note);
		});
	}

	afterRateLimit(answer: Answer): number {
		const { method, path } = this.request;
		const { budget } = this;
		const { waitMs, basis } = waitAfterRateLimit(
			answer.headers as Headers,
			this.rateLimitRetries,
			delays.now(),
		);
		if (this.rateLimitRetries >= MAX_RATE_LIMIT_RETRIES || !budget.fits(waitMs)) {
			const waited = Math.round(budget.spent / 1000);
			const note =
				this.rateLimitRetries >= MAX_RATE_LIMIT_RETRIES
					? `Gave up after ${this.rateLimitRetries} retries and ${waited} s of waiting`
					: `Gave up because the service asked for a wait of ${Math.ceil(waitMs / 1000)} s, beyond the ${Math.round(budget.limitMs / 1000)} s this node waits per request (${waited} s already waited)`;
			throw serviceError(this.node, answer, this.request, this.connection.redact, note);
		}
		this.rateLimitRetries++;
		budget.spend(waitMs);
		this.context.logger.warn(
			`${method} ${path}: rate limited (429); waiting ${waitMs} ms (${basis}), retry ${this.rateLimitRetries} of ${MAX_RATE_LIMIT_RETRIES}`,
		);
		return waitMs;
	}
}

/**
 * One request to the service. Resolves with any 2xx answer; throws NodeApiError for everything
 * else, worded with what the operation passed in `about` and `whenStatus`.
 */
export async function apiRequest<T = IDataObject>(
	this: ApiContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<ApiResponse<T>> {
	const { qs, body, itemIndex, about, whenStatus } = options;
	const connection = await connectionOf.call(this, itemIndex);
	const attempts = new Attempts(this, connection, { method, path, itemIndex, about, whenStatus });
	const outgoing = { method, path, qs, body, itemIndex };

	for (;;) {
		const outcome = await sendPaced.call(this, connection, attempts.budget, outgoing);
		let waitMs: number;
		if ('failure' in outcome) {
			waitMs = attempts.afterNetworkFailure(outcome.failure);
		} else {
			const answer = outcome.response;
			const { statusCode, headers } = answer;
			if (statusCode >= 200 && statusCode < 300) {
				return { statusCode, body: answer.body as T, headers };
			}
			waitMs =
				statusCode === 429 ? attempts.afterRateLimit(answer) : attempts.afterErrorStatus(answer);
		}
		await waitFor.call(this, waitMs, itemIndex);
	}
}
