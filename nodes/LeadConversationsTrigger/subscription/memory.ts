import type { StoredSubscription } from './api';

/**
 * A copy of each trigger's subscription record, held in this n8n process's memory beside the
 * node's static data.
 *
 * Why: the static data is where n8n keeps the subscription ID and secret between activation
 * and deactivation, and it can be lost (a workflow saved or imported without it, a save that
 * failed). The service cannot be asked which subscriptions exist, so without the ID a
 * deactivation could not delete the subscription and an activation would add a second one.
 *
 * What this guarantees: within one running n8n process, a trigger whose static data was lost
 * still finds the subscription it made: the next activation takes it over (same URL and
 * events) or deletes it (anything changed) before subscribing, and a deactivation deletes it.
 * It does not hold across a restart of n8n (the memory starts empty), nor when activation and
 * deactivation run in different processes (multi-main setups): there only a service that can
 * list its subscriptions lets the trigger find them (see `listSubscriptions`).
 */
const remembered = new Map<string, StoredSubscription>();

/**
 * The path of n8n's webhook URL: `/webhook/<webhook id>/webhook` for the production URL,
 * `/webhook-test/<webhook id>/webhook` while listening for a test event. Each has its own
 * subscription. The host part is left out: it is the instance address (WEBHOOK_URL), which a
 * stored subscription is compared against separately.
 */
function listenerOf(webhookUrl: string | undefined): string {
	return (webhookUrl ?? '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
}

/** One record per workflow, trigger node and listener (production or test URL). */
export function subscriptionScope(
	workflowId: string | undefined,
	nodeId: string,
	webhookUrl: string | undefined,
): string {
	return `${workflowId ?? ''}|${nodeId}|${listenerOf(webhookUrl)}`;
}

function copyOf(stored: StoredSubscription): StoredSubscription {
	const copy: StoredSubscription = {};
	if (stored.subscriptionId) copy.subscriptionId = stored.subscriptionId;
	if (stored.signingSecret) copy.signingSecret = stored.signingSecret;
	if (stored.subscribedUrl) copy.subscribedUrl = stored.subscribedUrl;
	if (stored.subscribedEvents) copy.subscribedEvents = [...stored.subscribedEvents];
	if (stored.undeletedSubscriptionIds?.length) {
		copy.undeletedSubscriptionIds = [...stored.undeletedSubscriptionIds];
	}
	return copy;
}

/** Keeps a copy of what the static data now says; nothing is kept for an empty record. */
export function rememberSubscription(scope: string, stored: StoredSubscription): void {
	const copy = copyOf(stored);
	if (copy.subscriptionId || copy.undeletedSubscriptionIds) remembered.set(scope, copy);
	else remembered.delete(scope);
}

export function rememberedSubscription(scope: string): StoredSubscription | undefined {
	const record = remembered.get(scope);
	return record ? copyOf(record) : undefined;
}

/**
 * Completes the static data with what memory knows, in place. Static data that names no
 * subscription takes over the remembered one. Static data that names another one wins (it was
 * written elsewhere: restored, or by another n8n main process), and the remembered one is
 * queued for deletion: if it still exists it is this trigger's and would deliver with a secret
 * the trigger no longer holds.
 * Subscriptions whose deletion failed are kept from both. True when the remembered
 * subscription was taken over.
 */
export function completeFromMemory(
	stored: StoredSubscription,
	memory: StoredSubscription | undefined,
): boolean {
	if (!memory) return false;
	let tookOver = false;
	const toDelete = [...(stored.undeletedSubscriptionIds ?? [])];
	if (memory.subscriptionId && !stored.subscriptionId) {
		stored.subscriptionId = memory.subscriptionId;
		if (memory.signingSecret) stored.signingSecret = memory.signingSecret;
		if (memory.subscribedUrl) stored.subscribedUrl = memory.subscribedUrl;
		if (memory.subscribedEvents) stored.subscribedEvents = [...memory.subscribedEvents];
		tookOver = true;
	} else if (memory.subscriptionId && memory.subscriptionId !== stored.subscriptionId) {
		toDelete.push(memory.subscriptionId);
	}
	toDelete.push(...(memory.undeletedSubscriptionIds ?? []));
	const unique = [...new Set(toDelete)].filter((id) => id !== stored.subscriptionId);
	if (unique.length > 0) stored.undeletedSubscriptionIds = unique;
	return tookOver;
}
