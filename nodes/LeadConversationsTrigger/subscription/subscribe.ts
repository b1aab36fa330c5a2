import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type TriggerSettings, userSigningSecret } from '../settings';
import {
	type StoredSubscription,
	createSubscription,
	deleteSubscription,
	subscriptionState,
} from './api';
import {
	removeUndeletedSubscriptions,
	removeUnknownSubscriptionsAt,
	replaceStoredSubscription,
} from './lifecycle';
import { assertHttpsWebhookUrl, sameEvents } from './rules';

const MANUAL_SECRET_HINT =
	"Create a Lead Conversations Signing Secret API credential with the secret the service's dashboard showed when the endpoint was added (Settings, Webhooks) and choose it in the trigger.";

/**
 * Whether the stored subscription is the one wanted now, changing nothing: false when there is
 * none, when its URL or events differ, when the service says it is gone, or when earlier
 * subscriptions still wait to be deleted. `create` then puts things right.
 */
export async function isCurrentSubscription(
	context: IHookFunctions,
	settings: TriggerSettings,
	stored: StoredSubscription,
): Promise<boolean> {
	if (settings.subscription === 'manual') {
		if ((await userSigningSecret(context)) === undefined) {
			throw new NodeOperationError(
				context.getNode(),
				'A manual subscription needs its signing secret in a Signing Secret credential',
				{ description: MANUAL_SECRET_HINT },
			);
		}
		// One this node made in Automatic mode would keep delivering, signed with a secret
		// that is no longer used.
		return !stored.subscriptionId && !stored.undeletedSubscriptionIds?.length;
	}
	if (!stored.subscriptionId || stored.undeletedSubscriptionIds?.length) return false;
	if (
		stored.subscribedUrl !== context.getNodeWebhookUrl('default') ||
		!sameEvents(stored.subscribedEvents, settings.events)
	) {
		return false;
	}
	return (await subscriptionState.call(context, stored.subscriptionId)) !== 'gone';
}

/**
 * Makes the subscription wanted now: deletes what earlier activations left (a changed or gone
 * subscription, failed deletions, unknown ones at this URL), then, in Automatic mode,
 * subscribes this node's https:// URL to the chosen events and stores the secret.
 */
export async function subscribe(
	context: IHookFunctions,
	settings: TriggerSettings,
	stored: StoredSubscription,
): Promise<void> {
	const url =
		settings.subscription === 'automatic'
			? assertHttpsWebhookUrl(context.getNode(), context.getNodeWebhookUrl('default'))
			: undefined;
	await removeUndeletedSubscriptions(context, stored);
	if (stored.subscriptionId) await replaceStoredSubscription(context, stored);
	if (url === undefined) return;

	await removeUnknownSubscriptionsAt(context, url, stored);
	const workflowName = context.getWorkflow().name ?? context.getWorkflow().id ?? '';
	const { subscriptionId, signingSecret } = await createSubscription.call(
		context,
		url,
		settings.events,
		`n8n workflow "${workflowName}", node "${context.getNode().name}"`,
	);

	if (!signingSecret && (await userSigningSecret(context)) === undefined) {
		// Deliveries could never be verified, so every one would be refused.
		await deleteSubscription.call(context, subscriptionId);
		throw new NodeOperationError(
			context.getNode(),
			'The service created the subscription but returned no signing secret',
			{
				description:
					"Choose Subscription: Manual, add the endpoint in the service's dashboard (Settings, Webhooks, Add Endpoint) and put the signing secret it shows into a Lead Conversations Signing Secret API credential.",
			},
		);
	}

	stored.subscriptionId = subscriptionId;
	if (signingSecret) stored.signingSecret = signingSecret;
	stored.subscribedUrl = url;
	stored.subscribedEvents = settings.events;
}
