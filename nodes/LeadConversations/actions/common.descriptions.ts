// Fields shared by several operations: the resource locators and Return All / Limit.

import type { INodeProperties } from 'n8n-workflow';

import { CONVERSATION_ID_PREFIX, LEAD_ID_PREFIX } from '../../shared/constants';

const ID_CHARACTERS = '[^\\s/?#]+';

export const leadLocator: INodeProperties = {
	displayName: 'Lead',
	name: 'lead',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The lead to work on',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a lead...',
			typeOptions: { searchListMethod: 'searchLeads', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. lead_8f2k1m9x',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: `^${LEAD_ID_PREFIX}${ID_CHARACTERS}$`,
						errorMessage: `A lead ID starts with "${LEAD_ID_PREFIX}"`,
					},
				},
			],
		},
	],
};

/** Optional: narrows "From List" of the conversation locator to the conversations of one lead. */
export const conversationLeadLocator: INodeProperties = {
	...leadLocator,
	displayName: 'Lead (to Narrow the List)',
	required: false,
	description:
		'Only used to narrow the conversation list below to this lead. Not needed when the conversation is given by ID.',
};

export const conversationLocator: INodeProperties = {
	displayName: 'Conversation',
	name: 'conversation',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The conversation to work on',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a conversation...',
			typeOptions: { searchListMethod: 'searchConversations', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. conv_3h7d9q2w',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: `^${CONVERSATION_ID_PREFIX}${ID_CHARACTERS}$`,
						errorMessage: `A conversation ID starts with "${CONVERSATION_ID_PREFIX}"`,
					},
				},
			],
		},
	],
};

export const agentLocator: INodeProperties = {
	displayName: 'Agent',
	name: 'agent',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The AI agent to work on',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an agent...',
			typeOptions: { searchListMethod: 'searchAgents', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. agent_5k2m8n1p',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: `^${ID_CHARACTERS}$`,
						errorMessage: 'An agent ID has no spaces, slashes, "?" or "#"',
					},
				},
			],
		},
	],
};

export function returnAllOrLimit(noun: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
			hint: `Pages of up to 100 ${noun} are read until the limit is reached`,
		},
	];
}
