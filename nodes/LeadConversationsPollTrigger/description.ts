import type { INodeProperties } from 'n8n-workflow';

import {
	CONVERSATION_CHANNELS,
	LEAD_API_CHANNEL,
	LEAD_CHANNELS,
	LEAD_INTENTS,
	SCORE_MAX,
	SCORE_MIN,
} from '../shared/constants';
import { optionsOf } from '../shared/labels';
import { POLL_EVENTS, WATCHABLE_LEAD_STATUSES } from './events';

const showForStatus = { show: { event: [POLL_EVENTS.leadStatus] } };

export const pollTriggerProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		required: true,
		options: [
			{
				name: 'Conversation Handed to a Human',
				value: POLL_EVENTS.conversationTransferred,
				description: 'A conversation is now transferred and was not at the previous poll',
			},
			{
				name: 'Lead Reached a Status',
				value: POLL_EVENTS.leadStatus,
				description: 'A lead is now in one of the chosen statuses and was not at the previous poll',
			},
			{
				name: 'New Lead',
				value: POLL_EVENTS.newLead,
				description: 'A lead was created since the previous poll',
			},
		],
		default: 'newLead',
	},
	{
		displayName:
			'Each check reads every record now in the watched status, 100 per request: 250 such leads take 3 requests per check. The first check after the workflow is published only notes where things stand and starts nothing.',
		name: 'statusCostNotice',
		type: 'notice',
		default: '',
		displayOptions: {
			show: { event: [POLL_EVENTS.leadStatus, POLL_EVENTS.conversationTransferred] },
		},
	},
	{
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		required: true,
		options: optionsOf(WATCHABLE_LEAD_STATUSES),
		default: ['qualified'],
		description:
			'The statuses to watch. Closed and Lost are not offered: leads stay there, so their lists only grow.',
		displayOptions: showForStatus,
	},
	{
		displayName: 'Conversation Channel',
		name: 'conversationChannel',
		type: 'options',
		options: [{ name: 'Any', value: '' }, ...optionsOf(CONVERSATION_CHANNELS)],
		default: '',
		description: 'Only conversations held on this channel',
		displayOptions: { show: { event: [POLL_EVENTS.conversationTransferred] } },
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: showForStatus,
		options: [
			{
				displayName: 'Only If Channel Is One Of',
				name: 'channels',
				type: 'multiOptions',
				options: optionsOf([...LEAD_CHANNELS, LEAD_API_CHANNEL]),
				default: [],
				description: 'Start the workflow only for leads from one of these channels',
			},
			{
				displayName: 'Only If Intent Is One Of',
				name: 'intents',
				type: 'multiOptions',
				options: optionsOf(LEAD_INTENTS),
				default: [],
				description: "Start the workflow only when the lead's intent is one of these",
			},
			{
				displayName: 'Only If Score Is At Least',
				name: 'minimumScore',
				type: 'number',
				typeOptions: { minValue: SCORE_MIN, maxValue: SCORE_MAX },
				default: 0,
				description:
					"Start the workflow only when the lead's score is at least this when it reaches the status",
			},
		],
	},
];
