import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../shared/constants';
import { testSigningSecret } from '../shared/events/signingSecret';
import { receiveDelivery } from './delivery/receive';
import { triggerPanel, triggerProperties } from './description';
import { optionNamesSubtitle } from '../shared/subtitle';
import { legacySigningSecret, readSettings } from './settings';
import { unsubscribe, withStoredSubscription } from './subscription/lifecycle';
import { isCurrentSubscription, subscribe } from './subscription/subscribe';

export class LeadConversationsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Lead Conversations Trigger',
		name: 'leadConversationsTrigger',
		icon: {
			light: 'file:../../icons/leadConversations.svg',
			dark: 'file:../../icons/leadConversations.dark.svg',
		},
		group: ['trigger'],
		// One version. Above 1 because n8n evaluates a legacy Webhook-v1 expression on every
		// delivery to a node at version 1. Workflows saved at 1 or 1.1 load and run unchanged.
		version: 2,
		// The chosen events as the Events dropdown names them: "Lead Qualified", not "lead.qualified".
		subtitle: optionNamesSubtitle('events', triggerProperties),
		// n8n lists this trigger and the action node as one entry of the nodes panel, under the
		// trigger's description: it speaks for both.
		description:
			'Work with the leads, conversations and AI agents of a vehicle dealership lead service, and start workflows on its events',
		defaults: {
			name: 'Lead Conversations Trigger',
		},
		triggerPanel: triggerPanel,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// Two selectors: n8n labels both "Credential" unless each is given its own label.
		credentials: [
			{ name: CREDENTIAL_NAME, required: true, displayName: 'API Credential' },
			// String literals: the community-node lint reads these to find the credential's test.
			{
				name: 'leadConversationsSigningSecretApi',
				required: false,
				displayName: 'Signing Secret (for Manual Subscription)',
				testedBy: 'testSigningSecret',
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// n8n answers once it has created the execution. An empty responseData makes it
				// answer with the node's webhookResponse instead of the text "firstEntryJson".
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = { credentialTest: { testSigningSecret } };

	webhookMethods = {
		default: {
			/** True when the stored subscription is the one wanted now; changes nothing. */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const settings = readSettings(this);
				if (legacySigningSecret(this) !== undefined) {
					this.logger.warn(
						'Lead Conversations Trigger: the Signing Secret is stored in the workflow in plain text; move it into a Lead Conversations Signing Secret API credential',
					);
				}
				return await withStoredSubscription(
					this,
					async (stored) => await isCurrentSubscription(this, settings, stored),
				);
			},

			/** Replaces what is stored by the subscription wanted now (nothing, when Manual). */
			async create(this: IHookFunctions): Promise<boolean> {
				const settings = readSettings(this);
				await withStoredSubscription(
					this,
					async (stored) => await subscribe(this, settings, stored),
				);
				return true;
			},

			/** Unsubscribes; a failure is logged and retried later, never blocking deactivation. */
			async delete(this: IHookFunctions): Promise<boolean> {
				await withStoredSubscription(this, async (stored) => await unsubscribe(this, stored));
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}
}
