import type { IHookFunctions } from 'n8n-workflow';

import { deliveryScope, forgetDeliveries } from '../../shared/events/dedupMemory';
import type { NodeContext } from '../settings';
import {
	type StoredSubscription,
	deleteSubscription,
	forgetSubscription,
	listSubscriptions,
} from './api';
import {
	completeFromMemory,
	rememberSubscription,
	rememberedSubscription,
	subscriptionScope,
} from './memory';

function subscriptionScopeOf(context: NodeContext): string {
	return subscriptionScope(
		context.getWorkflow().id,
		context.getNode().id,
		context.getNodeWebhookUrl('default'),
	);
}

/**
 * The node's static data, completed from this process's memory when it lost the subscription
 * (memory.ts says what that memory guarantees).
 */
export function storedSubscription(
	context: NodeContext,
	scope = subscriptionScopeOf(context),
): { stored: StoredSubscription; tookOver: boolean } {
	const stored = context.getWorkflowStaticData('node') as StoredSubscription;
	const tookOver = completeFromMemory(stored, rememberedSubscription(scope));
	return { stored, tookOver };
}

/**
 * Runs one of the webhook methods on the subscription record and keeps a copy of what it
 * leaves in memory, also when it fails half-way (a subscription deleted before a failure is
 * not to be deleted twice; one created is not to be forgotten).
 */
export async function withStoredSubscription<T>(
	context: IHookFunctions,
	work: (stored: StoredSubscription) => Promise<T>,
): Promise<T> {
	const scope = subscriptionScopeOf(context);
	const { stored, tookOver } = storedSubscription(context, scope);
	if (tookOver) {
		context.logger.info(
			`Lead Conversations Trigger: the workflow's static data had lost subscription ${String(stored.subscriptionId)}; using the record kept in memory`,
		);
	}
	try {
		return await work(stored);
	} finally {
		rememberSubscription(scope, stored);
	}
}

export function deliveryScopeOf(context: NodeContext, stored: StoredSubscription): string {
	return deliveryScope(context.getWorkflow().id, context.getNode().id, stored.subscriptionId);
}

/**
 * Deletes the stored subscription and forgets it. A failure other than "already gone" stops
 * the activation: subscribing again would leave two subscriptions delivering every event.
 */
export async function replaceStoredSubscription(
	context: IHookFunctions,
	stored: StoredSubscription,
): Promise<void> {
	await deleteSubscription.call(context, stored.subscriptionId as string);
	forgetDeliveries(deliveryScopeOf(context, stored));
	forgetSubscription(stored);
}

/**
 * Subscriptions whose deletion failed earlier, or that the static data no longer names, get
 * another try on every activation and deactivation.
 */
export async function removeUndeletedSubscriptions(
	context: IHookFunctions,
	stored: StoredSubscription,
): Promise<void> {
	const remaining: string[] = [];
	for (const subscriptionId of stored.undeletedSubscriptionIds ?? []) {
		try {
			await deleteSubscription.call(context, subscriptionId);
		} catch (error) {
			context.logger.warn(
				`Lead Conversations Trigger: the earlier subscription ${subscriptionId} still could not be deleted (${(error as Error).message}); delete it in the service's dashboard`,
			);
			remaining.push(subscriptionId);
		}
	}
	if (remaining.length > 0) stored.undeletedSubscriptionIds = remaining;
	else delete stored.undeletedSubscriptionIds;
}

/**
 * Subscriptions at this trigger's URL that nothing stored names, when the service can list
 * them: the URL carries n8n's webhook ID of this very node, so they are this trigger's, left
 * by static data lost in an earlier process or by a subscribing POST whose answer never came.
 * Their secrets are unknown, so they are deleted rather than taken over. A service that
 * cannot list, or a listing that fails, never stops the activation.
 */
export async function removeUnknownSubscriptionsAt(
	context: IHookFunctions,
	url: string,
	stored: StoredSubscription,
): Promise<void> {
	let listed: Awaited<ReturnType<typeof listSubscriptions>>;
	try {
		listed = await listSubscriptions.call(context);
	} catch (error) {
		context.logger.warn(
			`Lead Conversations Trigger: could not list the service's subscriptions (${(error as Error).message}); subscribing without looking for earlier ones at this URL`,
		);
		return;
	}
	for (const { id } of (listed ?? []).filter((subscription) => subscription.url === url)) {
		try {
			await deleteSubscription.call(context, id);
			context.logger.info(
				`Lead Conversations Trigger: deleted subscription ${id}, an earlier one at this trigger's URL that nothing stored named`,
			);
		} catch (error) {
			context.logger.warn(
				`Lead Conversations Trigger: could not delete the earlier subscription ${id} at this trigger's URL (${(error as Error).message}); it will be tried again on the next activation`,
			);
			stored.undeletedSubscriptionIds = [...(stored.undeletedSubscriptionIds ?? []), id];
		}
	}
}

/**
 * Unsubscribes. A subscription that is already gone is fine; any other failure is logged and
 * remembered for the next activation, and never blocks deactivation.
 */
export async function unsubscribe(
	context: IHookFunctions,
	stored: StoredSubscription,
): Promise<void> {
	await removeUndeletedSubscriptions(context, stored);
	const { subscriptionId } = stored;
	if (subscriptionId) {
		try {
			await deleteSubscription.call(context, subscriptionId);
		} catch (error) {
			context.logger.warn(
				`Lead Conversations Trigger: could not delete subscription ${subscriptionId} (${(error as Error).message}); it will be deleted before the next subscription is made`,
			);
			stored.undeletedSubscriptionIds = [
				...(stored.undeletedSubscriptionIds ?? []),
				subscriptionId,
			];
		}
		forgetDeliveries(deliveryScopeOf(context, stored));
	}
	forgetSubscription(stored);
}
