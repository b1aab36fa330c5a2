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
	subscriptionState,
} from './subscription';
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

function storedSubscription(context: NodeContext): StoredSubscription {
	return context.getWorkflowStaticData('node') as StoredSubscription;
}

function scopeOf(context: NodeContext, stored: StoredSubscription): string {
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
	forgetDeliveries(scopeOf(context, stored));
	forgetSubscription(stored);
}

/** Subscriptions a deactivation could not delete get another try before a new one is made. */
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
		version: 1,
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
				const stored = storedSubscription(this);

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
					if (stored.subscriptionId) await replaceStoredSubscription(this, stored);
					return true;
				}

				if (!stored.subscriptionId) return false;

				const url = this.getNodeWebhookUrl('default');
				if (stored.subscribedUrl !== url || !sameEvents(stored.subscribedEvents, settings.events)) {
					await replaceStoredSubscription(this, stored);
					return false;
				}

				const state = await subscriptionState.call(this, stored.subscriptionId);
				if (state === 'gone') {
					forgetSubscription(stored);
					return false;
				}
				return true;
			},

			/** Subscribes this node's https:// URL to the chosen events and stores the secret. */
			async create(this: IHookFunctions): Promise<boolean> {
				const settings = readSettings(this);
				if (settings.subscription === 'manual') return true;

				const url = assertHttpsWebhookUrl(this.getNode(), this.getNodeWebhookUrl('default'));
				const stored = storedSubscription(this);
				await removeUndeletedSubscriptions(this, stored);

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
			},

			/**
			 * Unsubscribes. A subscription that is already gone is fine; any other failure is
			 * logged and remembered for the next activation, and never blocks deactivation.
			 */
			async delete(this: IHookFunctions): Promise<boolean> {
				const stored = storedSubscription(this);
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
					forgetDeliveries(scopeOf(this, stored));
				}
				forgetSubscription(stored);
				return true;
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
		const stored = storedSubscription(this);
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
		const ledger = deliveryLedger(scopeOf(this, stored));
		if (ledger.isDuplicate(deliveryKey(payload, request.rawBody), Date.now())) {
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
