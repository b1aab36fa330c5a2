import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../shared/constants';
import { agentDescription } from './actions/agent/Agent.resource';
import { conversationDescription } from './actions/conversation/Conversation.resource';
import { leadDescription } from './actions/lead/Lead.resource';
import { router } from './actions/router';
import { toolDescriptionProperties } from './actions/tool.descriptions';
import { listSearch } from './methods';

export class LeadConversations implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Lead Conversations',
		name: 'leadConversations',
		icon: {
			light: 'file:../../icons/leadConversations.svg',
			dark: 'file:../../icons/leadConversations.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Work with the leads, conversations and AI agents of a vehicle dealership lead service',
		defaults: { name: 'Lead Conversations' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_NAME, required: true }],
		properties: [
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
					{ name: 'Lead', value: 'lead', description: 'Sales prospects of the dealership' },
				],
				default: 'lead',
			},
			...leadDescription,
			...conversationDescription,
			...agentDescription,
			...toolDescriptionProperties,
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
