import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { SIGNATURE_HEADER } from '../shared/constants';
import { apiRequest } from '../shared/transport';
import { type LeadConditions, unmetLeadCondition } from './conditions';
import {
	type EventPayload,
	type OutputShape,
	dataOf,
	leadIdOf,
	outputJson,
	parseEventPayload,
} from './delivery';
import { deliveryKey } from './deliveryDedup';
import { deliveryLedger, deliveryScope, forgetDeliveries } from './deliveryMemory';
import { triggerProperties } from './description';
import { isValidSignature } from './signature';
import {
	type StoredSubscription,
	createSubscription,
	deleteSubscription,
	forgetSubscription,
	listSubscriptions,
	subscriptionState,
} from './subscription';
import {
	completeFromMemory,
	rememberSubscription,
	rememberedSubscription,
	subscriptionScope,
} from './subscriptionMemory';
import {
	assertHttpsWebhookUrl,
	isSubscribed,
	sameEvents,
	subscribedEvents,
} from './subscriptionRules';

type NodeContext = IHookFunctions | IWebhookFunctions;

interface TriggerSettings {
	events: string[];
	subscription: 'automatic' | 'manual';
	/** Filled by the user; always wins over the secret the service returned. */
	signingSecret: string;
	output: OutputShape;
	conditions: LeadConditions;
	fetchCurrentLead: boolean;
}

function readSettings(context: NodeContext): TriggerSettings {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const events = subscribedEvents(
		context.getNodeParameter('events', []) as string[],
		context.getNodeParameter('otherEvents', '') as string,
	);
	if (events.length === 0) {
		throw new NodeOperationError(
			context.getNode(),
			'Choose at least one event in Events, or type one in Other Event Names',
		);
	}
	return {
		events,
		subscription: context.getNodeParameter('subscription', 'automatic') as 'automatic' | 'manual',
		signingSecret: context.getNodeParameter('signingSecret', '') as string,
		output: (options.output as OutputShape | undefined) ?? 'payload',
		conditions: {
			minimumScore: options.minimumScore as number | undefined,
			intents: options.intents as string[] | undefined,
			channels: options.channels as string[] | undefined,
			statuses: options.statuses as string[] | undefined,
		},
		fetchCurrentLead: options.fetchCurrentLead === true,
	};
}

function subscriptionScopeOf(context: NodeContext): string {
	return subscriptionScope(
		context.getWorkflow().id,
		context.getNode().id,
		context.getNodeWebhookUrl('default'),
	);
}

/**
 * The node's static data, completed from this process's memory when it lost the subscription
 * (subscriptionMemory.ts says what that memory guarantees).
 */
function storedSubscription(
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
async function withStoredSubscription<T>(
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

function deliveryScopeOf(context: NodeContext, stored: StoredSubscription): string {
	return deliveryScope(context.getWorkflow().id, context.getNode().id, stored.subscriptionId);
}

/**
 * Deletes the stored subscription and forgets it. A failure other than "already gone" stops
 * the activation: subscribing again would leave two subscriptions delivering every event.
 */
async function replaceStoredSubscription(
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
async function removeUndeletedSubscriptions(
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
async function removeUnknownSubscriptionsAt(
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

/** Answers the service directly, so n8n sends nothing more on this request. */
function answer(context: IWebhookFunctions, status: number, body: string | IDataObject): void {
	context.getResponseObject().status(status).send(body);
}

const ACCEPTED = { received: true };

/**
 * Reads the lead as it is now. A failure does not lose the event: the service has already
 * been answered, so the run starts with the event and the reason the lead is missing.
 */
async function currentLeadFields(
	context: IWebhookFunctions,
	payload: EventPayload,
): Promise<IDataObject> {
	const leadId = leadIdOf(payload);
	if (leadId === undefined) return {};
	try {
		const response = await apiRequest.call(context, 'GET', `/leads/${encodeURIComponent(leadId)}`);
		return { current_lead: response.body as IDataObject };
	} catch (error) {
		const { httpCode, message } = error as { httpCode?: string | null; message?: string };
		context.logger.warn(
			`Lead Conversations Trigger: could not fetch the current lead ${leadId}: ${message ?? 'unknown error'}`,
		);
		return {
			current_lead: null,
			current_lead_error: { http_code: httpCode ?? null, message: message ?? 'unknown error' },
		};
	}
}

export class LeadConversationsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Lead Conversations Trigger',
		name: 'leadConversationsTrigger',
		icon: {
			light: 'file:../../icons/leadConversations.svg',
			dark: 'file:../../icons/leadConversations.dark.svg',
		},
		group: ['trigger'],
		// 1.1 changes nothing in the node; n8n evaluates a legacy Webhook-v1 expression on every
		// delivery to a version-1 trigger, which 1.1 is spared. Workflows saved with 1 keep working.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when the lead and conversation service sends an event',
		defaults: {
			name: 'Lead Conversations Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'leadConversationsApi',
				required: true,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	webhookMethods = {
		default: {
			/**
			 * True when a subscription for today's URL and events exists. A stored one for
			 * another URL or other events is deleted first, so one trigger never has two.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const settings = readSettings(this);
				return await withStoredSubscription(this, async (stored) => {
					if (settings.subscription === 'manual') {
						if (!settings.signingSecret) {
							throw new NodeOperationError(
								this.getNode(),
								'A manual subscription needs its signing secret in Signing Secret',
								{
									description:
										"Copy the secret the service's dashboard showed when the endpoint was added (Settings, Webhooks).",
								},
							);
						}
						// A subscription this node made in Automatic mode would keep delivering,
						// signed with a secret that is no longer used.
						await removeUndeletedSubscriptions(this, stored);
						if (stored.subscriptionId) await replaceStoredSubscription(this, stored);
						return true;
					}

					await removeUndeletedSubscriptions(this, stored);
					if (!stored.subscriptionId) return false;

					const url = this.getNodeWebhookUrl('default');
					if (
						stored.subscribedUrl !== url ||
						!sameEvents(stored.subscribedEvents, settings.events)
					) {
						await replaceStoredSubscription(this, stored);
						return false;
					}

					const state = await subscriptionState.call(this, stored.subscriptionId);
					if (state === 'gone') {
						forgetSubscription(stored);
						return false;
					}
					return true;
				});
			},

			/**
			 * Subscribes this node's https:// URL to the chosen events and stores the secret,
			 * after removing what earlier activations may have left at that URL.
			 */
			async create(this: IHookFunctions): Promise<boolean> {
				const settings = readSettings(this);
				if (settings.subscription === 'manual') return true;

				const url = assertHttpsWebhookUrl(this.getNode(), this.getNodeWebhookUrl('default'));
				return await withStoredSubscription(this, async (stored) => {
					await removeUndeletedSubscriptions(this, stored);
					await removeUnknownSubscriptionsAt(this, url, stored);

					const workflowName = this.getWorkflow().name ?? this.getWorkflow().id ?? '';
					const { subscriptionId, signingSecret } = await createSubscription.call(
						this,
						url,
						settings.events,
						`n8n workflow "${workflowName}", node "${this.getNode().name}"`,
					);

					if (!signingSecret && !settings.signingSecret) {
						// Deliveries could never be verified, so every one would be refused.
						await deleteSubscription.call(this, subscriptionId);
						throw new NodeOperationError(
							this.getNode(),
							'The service created the subscription but returned no signing secret',
							{
								description:
									"Choose Subscription: Manual, add the endpoint in the service's dashboard (Settings, Webhooks, Add Endpoint) and paste the signing secret it shows into Signing Secret.",
							},
						);
					}

					stored.subscriptionId = subscriptionId;
					if (signingSecret) stored.signingSecret = signingSecret;
					stored.subscribedUrl = url;
					stored.subscribedEvents = settings.events;
					return true;
				});
			},

			/**
			 * Unsubscribes. A subscription that is already gone is fine; any other failure is
			 * logged and remembered for the next activation, and never blocks deactivation.
			 */
			async delete(this: IHookFunctions): Promise<boolean> {
				return await withStoredSubscription(this, async (stored) => {
					await removeUndeletedSubscriptions(this, stored);
					const { subscriptionId } = stored;
					if (subscriptionId) {
						try {
							await deleteSubscription.call(this, subscriptionId);
						} catch (error) {
							this.logger.warn(
								`Lead Conversations Trigger: could not delete subscription ${subscriptionId} (${(error as Error).message}); it will be deleted before the next subscription is made`,
							);
							stored.undeletedSubscriptionIds = [
								...(stored.undeletedSubscriptionIds ?? []),
								subscriptionId,
							];
						}
						forgetDeliveries(deliveryScopeOf(this, stored));
					}
					forgetSubscription(stored);
					return true;
				});
			},
		},
	};

	/**
	 * Every delivery: verify the signature on the raw bytes first, then parse, skip events not
	 * subscribed to, duplicates and leads not meeting the conditions (all answered 200 without
	 * a run), answer the service at once, and start one run with one item.
	 */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		if (!request.rawBody) await request.readRawBody();

		const settings = readSettings(this);
		const { stored } = storedSubscription(this);
		const signingSecret = settings.signingSecret || stored.signingSecret;
		if (!isValidSignature(signingSecret, request.rawBody, request.headers[SIGNATURE_HEADER])) {
			answer(this, 401, 'Unauthorized');
			return { noWebhookResponse: true };
		}

		const payload = parseEventPayload(request.rawBody);
		if (payload === undefined) {
			answer(this, 400, 'Bad Request');
			return { noWebhookResponse: true };
		}

		if (!isSubscribed(settings.events, payload.event)) {
			answer(this, 200, ACCEPTED);
			return { noWebhookResponse: true };
		}

		// Process memory, not static data: n8n does not save static data written by a call that
		// starts a run (what this guarantees is written in deliveryMemory.ts).
		const ledger = deliveryLedger(deliveryScopeOf(this, stored));
		if (ledger.isDuplicate(deliveryKey(payload), Date.now())) {
			answer(this, 200, ACCEPTED);
			return { noWebhookResponse: true };
		}

		const unmet = unmetLeadCondition(payload.event, dataOf(payload), settings.conditions);
		if (unmet !== undefined) {
			this.logger.debug(`Lead Conversations Trigger: ${payload.event} skipped, ${unmet}`);
			answer(this, 200, ACCEPTED);
			return { noWebhookResponse: true };
		}

		// The service waits at most 10 s for an answer; fetching the lead may take longer.
		answer(this, 200, ACCEPTED);
		const extra = settings.fetchCurrentLead ? await currentLeadFields(this, payload) : {};
		return {
			workflowData: [this.helpers.returnJsonArray(outputJson(payload, settings.output, extra))],
			noWebhookResponse: true,
		};
	}
}
