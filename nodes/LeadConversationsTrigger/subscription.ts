import type { IDataObject, IHookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../shared/transport';
import { readSigningSecret } from './subscriptionRules';

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

export async function createSubscription(
	this: IHookFunctions,
	url: string,
	events: string[],
	description: string,
): Promise<{ subscriptionId: string; signingSecret?: string }> {
	const response = await apiRequest.call(this, 'POST', '/webhooks', {
		body: { url, events, description },
	});
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
 * trusted (`not-shown.md` §1). Any other failure stops the activation rather than risk a
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

/** 404 and 405 both mean there is nothing left to delete (`not-shown.md` §1). */
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
