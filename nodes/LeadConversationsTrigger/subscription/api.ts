import type { IDataObject, IHookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { type ApiResponse, apiRequest } from '../../shared/transport';
import { type ListedSubscription, readSigningSecret, readSubscriptionPage } from './rules';

/** What the node keeps in its static data between activation and deactivation. */
export interface StoredSubscription extends IDataObject {
	subscriptionId?: string;
	signingSecret?: string;
	subscribedUrl?: string;
	subscribedEvents?: string[];
	/** Subscriptions whose deletion failed on deactivation, removed before subscribing again. */
	undeletedSubscriptionIds?: string[];
}

export function forgetSubscription(stored: StoredSubscription): void {
	delete stored.subscriptionId;
	delete stored.signingSecret;
	delete stored.subscribedUrl;
	delete stored.subscribedEvents;
}

function httpStatusOf(error: unknown): number | undefined {
	const code = Number((error as { httpCode?: unknown })?.httpCode);
	return Number.isInteger(code) ? code : undefined;
}

/**
 * Subscribes `url` to `events`. A 409 is how a service may refuse a second subscription for
 * one URL: it then holds one this trigger has lost track of, which only the dashboard can
 * remove when the service cannot list its subscriptions.
 */
export async function createSubscription(
	this: IHookFunctions,
	url: string,
	events: string[],
	description: string,
): Promise<{ subscriptionId: string; signingSecret?: string }> {
	let response: ApiResponse<unknown>;
	try {
		response = await apiRequest.call(this, 'POST', '/webhooks', {
			body: { url, events, description },
		});
	} catch (error) {
		if (httpStatusOf(error) !== 409) throw new NodeApiError(this.getNode(), error as JsonObject);
		const reason = (error as Error).message;
		throw new NodeApiError(this.getNode(), { status: 409, message: reason } as JsonObject, {
			message: `The service already has a subscription for this trigger's webhook URL: ${reason}`,
			description:
				"This trigger lost track of an earlier subscription at its URL (the workflow's static data no longer names it) and could not find it in a listing of the service's subscriptions. Delete the endpoint with this workflow's webhook URL in the service's dashboard (Settings, Webhooks) and activate the workflow again, or choose Subscription: Manual and put that endpoint's signing secret into a Lead Conversations Signing Secret API credential.",
			httpCode: '409',
		});
	}
	const created = (response.body ?? {}) as IDataObject;
	const subscriptionId = created.id;
	if (typeof subscriptionId !== 'string' || subscriptionId === '') {
		throw new NodeOperationError(
			this.getNode(),
			'The service accepted the subscription but returned no subscription ID',
		);
	}
	return { subscriptionId, signingSecret: readSigningSecret(created) };
}

/**
 * 404: the subscription is gone. 405 or 501: the service cannot say, so what is stored is
 * trusted (`docs/service-contract.md` §7). Any other failure stops the activation rather than risk a
 * second subscription.
 */
export async function subscriptionState(
	this: IHookFunctions,
	subscriptionId: string,
): Promise<'exists' | 'gone' | 'unknown'> {
	try {
		await apiRequest.call(this, 'GET', `/webhooks/${encodeURIComponent(subscriptionId)}`);
		return 'exists';
	} catch (error) {
		const status = httpStatusOf(error);
		if (status === 404) return 'gone';
		if (status === 405 || status === 501) return 'unknown';
		throw new NodeApiError(this.getNode(), error as JsonObject);
	}
}

/** 404 and 405 both mean there is nothing left to delete (`docs/service-contract.md` §7). */
export async function deleteSubscription(
	this: IHookFunctions,
	subscriptionId: string,
): Promise<'deleted' | 'already gone'> {
	try {
		await apiRequest.call(this, 'DELETE', `/webhooks/${encodeURIComponent(subscriptionId)}`);
		return 'deleted';
	} catch (error) {
		const status = httpStatusOf(error);
		if (status === 404 || status === 405) return 'already gone';
		throw new NodeApiError(this.getNode(), error as JsonObject);
	}
}

/** At most this many pages are read when listing: 100 subscriptions a page would be 1,000. */
const MAX_LIST_PAGES = 10;

/**
 * The subscriptions the service lists, or `undefined` when it cannot list them: the
 * specification shows no list endpoint (the sandbox answers 405), so 404, 405 and 501 mean
 * "cannot list", as does an answer that is not a list. Any other failure is thrown.
 */
export async function listSubscriptions(
	this: IHookFunctions,
): Promise<ListedSubscription[] | undefined> {
	const listed: ListedSubscription[] = [];
	let cursor: string | undefined;
	for (let page = 1; page <= MAX_LIST_PAGES; page++) {
		let body: unknown;
		try {
			({ body } = await apiRequest.call(this, 'GET', '/webhooks', {
				qs: cursor === undefined ? undefined : { cursor },
			}));
		} catch (error) {
			const status = httpStatusOf(error);
			if (status === 404 || status === 405 || status === 501) return undefined;
			throw new NodeApiError(this.getNode(), error as JsonObject);
		}
		const read = readSubscriptionPage(body);
		if (read === undefined) return undefined;
		listed.push(...read.subscriptions);
		if (read.nextCursor === undefined || read.nextCursor === cursor) break;
		cursor = read.nextCursor;
	}
	return listed;
}
