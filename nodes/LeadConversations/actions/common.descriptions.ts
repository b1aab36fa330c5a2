// Fields shared by several operations: the resource locators and Return All / Limit.

import type { INodeProperties } from 'n8n-workflow';

import {
	CONVERSATION_ID_PREFIX,
	ID_FORBIDDEN_CHARACTERS,
	LEAD_ID_PREFIX,
} from '../../shared/constants';

const ID_CHARACTERS = `[^${ID_FORBIDDEN_CHARACTERS}]+`;

/**
 * "From List" and "By ID" of a locator, the ID checked in the editor as the node checks it, to
 * spread into the locator. n8n's lint rules check a locator's own fields (display name,
 * description) only where they are written out, so each locator keeps those as literals; the
 * modes stay under a `modes` key, which is how the rules tell modes from parameters.
 */
function idLocatorModes(modes: {
	searchListMethod: string;
	listPlaceholder: string;
	idPlaceholder: string;
	/** The start of every ID, where the specification gives one. */
	idPrefix: string;
	idErrorMessage: string;
}): Pick<INodeProperties, 'modes'> {
	return {
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: modes.listPlaceholder,
				typeOptions: { searchListMethod: modes.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: modes.idPlaceholder,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: `^${modes.idPrefix}${ID_CHARACTERS}$`,
							errorMessage: modes.idErrorMessage,
						},
					},
				],
			},
		],
	};
}

export const leadLocator: INodeProperties = {
	displayName: 'Lead',
	name: 'lead',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The lead to work on',
	...idLocatorModes({
		searchListMethod: 'searchLeads',
		listPlaceholder: 'Select a lead...',
		idPlaceholder: 'e.g. lead_8f2k1m9x',
		idPrefix: LEAD_ID_PREFIX,
		idErrorMessage: `A lead ID starts with "${LEAD_ID_PREFIX}"`,
	}),
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
	...idLocatorModes({
		searchListMethod: 'searchConversations',
		listPlaceholder: 'Select a conversation...',
		idPlaceholder: 'e.g. conv_3h7d9q2w',
		idPrefix: CONVERSATION_ID_PREFIX,
		idErrorMessage: `A conversation ID starts with "${CONVERSATION_ID_PREFIX}"`,
	}),
};

/** Send Message's conversation: its list holds only the conversations that can take a message. */
export const openConversationLocator: INodeProperties = {
	displayName: 'Conversation',
	name: 'conversation',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description:
		'The open conversation to send to. The list leaves out closed, transferred and phone conversations, which refuse messages.',
	...idLocatorModes({
		searchListMethod: 'searchOpenConversations',
		listPlaceholder: 'Select an open conversation...',
		idPlaceholder: 'e.g. conv_3h7d9q2w',
		idPrefix: CONVERSATION_ID_PREFIX,
		idErrorMessage: `A conversation ID starts with "${CONVERSATION_ID_PREFIX}"`,
	}),
};

export const agentLocator: INodeProperties = {
	displayName: 'Agent',
	name: 'agent',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The AI agent to work on',
	...idLocatorModes({
		searchListMethod: 'searchAgents',
		listPlaceholder: 'Select an agent...',
		idPlaceholder: 'e.g. agent_5k2m8n1p',
		// Agent IDs have no documented prefix.
		idPrefix: '',
		idErrorMessage: 'An agent ID has no spaces, slashes, "?" or "#"',
	}),
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
