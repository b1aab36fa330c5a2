import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../shared/constants';
import { SIGNING_SECRET_CREDENTIAL, testSigningSecret } from '../shared/events/signingSecret';
import { operationSubtitle } from '../shared/subtitle';
import { agentDescription } from './actions/agent/Agent.resource';
import { conversationDescription } from './actions/conversation/Conversation.resource';
import { eventDescription } from './actions/event/Event.resource';
import { actionNodeOutputs } from './actions/event/outputs';
import { leadDescription } from './actions/lead/Lead.resource';
import { router } from './actions/router';
import { toolDescriptionProperties } from './actions/tool.descriptions';
import { webhookSubscriptionDescription } from './actions/webhookSubscription/WebhookSubscription.resource';
import { listSearch } from './methods';

const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Agent', value: 'agent', description: 'AI agents that converse with leads' },
			{
				name: 'Conversation',
				value: 'conversation',
				description: 'Conversations with leads and their messages',
			},
			{
				name: 'Event',
				value: 'event',
				description: 'Webhook deliveries received by a Webhook node',
			},
			{ name: 'Lead', value: 'lead', description: 'Sales prospects of the dealership' },
			{
				name: 'Webhook Subscription',
				value: 'webhookSubscription',
				description: 'Endpoints the service delivers events to',
			},
		],
		default: 'lead',
	},
	...leadDescription,
	...conversationDescription,
	...agentDescription,
	...toolDescriptionProperties,
	...eventDescription,
	...webhookSubscriptionDescription,
];

export class LeadConversations implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Lead Conversations',
		name: 'leadConversations',
		icon: {
			light: 'file:../../icons/leadConversations.svg',
			dark: 'file:../../icons/leadConversations.dark.svg',
		},
		group: ['transform'],
		// 1.1: Lead → Update clears the advisor through Fields to Clear (no Unassign switch), and
		// Webhook Subscription → Create shows Other Event Names below Events, as the trigger does.
		// Nodes saved at 1 keep both as they were.
		// 1.2: Lead → Assign's entered advisors keep their rule under Rule (Add Rule); nodes saved
		// before keep the four rule fields beside the User ID, where their values are.
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		// "Send Message: Conversation" rather than "sendMessage: conversation": the dropdowns' words.
		subtitle: operationSubtitle(properties),
		description:
			'Work with the leads, conversations and AI agents of a vehicle dealership lead service',
		defaults: { name: 'Lead Conversations' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: actionNodeOutputs,
		// Verifying a delivery needs its endpoint's signing secret, not access to the service.
		credentials: [
			{ name: CREDENTIAL_NAME, required: true, displayOptions: { hide: { resource: ['event'] } } },
			{
				name: SIGNING_SECRET_CREDENTIAL,
				required: true,
				// Else n8n labels it "Credential for Lead Conversations Signing Secret API".
				displayName: 'Signing Secret',
				testedBy: 'testSigningSecret',
				displayOptions: { show: { resource: ['event'] } },
			},
		],
		properties,
	};

	methods = { listSearch, credentialTest: { testSigningSecret } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
