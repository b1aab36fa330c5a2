import type { INodeProperties } from 'n8n-workflow';

import {
	CONVERSATION_CHANNELS,
	LEAD_API_CHANNEL,
	LEAD_CHANNELS,
	LEAD_INTENTS,
} from '../shared/constants';
import { FLAT_COLUMNS_DETAIL, FLAT_OUTPUT_DESCRIPTION } from '../shared/flatLead';
import { optionsOf } from '../shared/labels';
import { LEAD_OUTPUTS, POLL_EVENTS, WATCHABLE_LEAD_STATUSES } from './events';
import { notContactedProperties } from './notContactedDescription';
import { optionsCollection } from '../shared/descriptions';
import { minimumScoreOption } from '../shared/events/options';

const showForStatus = { show: { event: [POLL_EVENTS.leadStatus] } };

const leadOutputOption: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	description: FLAT_COLUMNS_DETAIL,
	options: [
		{
			name: 'Event',
			value: LEAD_OUTPUTS.event,
			description: 'The fields of the matching webhook event, plus event and polled_at',
		},
		{
			name: 'Flat',
			value: LEAD_OUTPUTS.flat,
			description: FLAT_OUTPUT_DESCRIPTION,
		},
	],
	default: 'event',
};

export const pollTriggerProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		required: true,
		options: [
			{
				name: 'Assigned Lead Contacted',
				value: POLL_EVENTS.assignedContacted,
				description:
					"A lead in Assigned got its advisor's first message, with how long the advisor took",
			},
			{
				name: 'Assigned Lead Not Contacted',
				value: POLL_EVENTS.assignedNotContacted,
				description:
					'A lead has waited in Assigned for the chosen time and its advisor has not written to it in the service',
			},
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
			{
				name: 'New or Updated Lead',
				value: POLL_EVENTS.leadChanged,
				description:
					'A lead was created or any of its fields changed since the previous poll; for keeping a spreadsheet in sync',
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
		displayName:
			"Each poll reads all your leads, one request per 100, and leaves half of the key's 1,000 requests a minute to other work: a large account is read over several polls.",
		name: 'changesCostNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: [POLL_EVENTS.leadChanged] } },
	},
	...notContactedProperties,
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
			minimumScoreOption(
				"Start the workflow only when the lead's score is at least this when it reaches the status",
			),
		],
	},
	optionsCollection(
		[
			{
				displayName: 'Include Existing Leads',
				name: 'includeExistingLeads',
				type: 'boolean',
				default: false,
				description:
					'Whether the first polls after activation output every lead that already exists, once each, to fill an empty sheet. A large account is read over several polls. When off, the first poll only notes where things stand.',
			},
			{
				...leadOutputOption,
				description: `Event gives the lead as the service returns it, plus polled_at and event: lead.created for a lead not changed since it was created, else lead.updated, a name this node gives (the service sends no such event). ${FLAT_COLUMNS_DETAIL}`,
			},
		],
		{ show: { event: [POLL_EVENTS.leadChanged] } },
	),
	optionsCollection([leadOutputOption], {
		show: { event: [POLL_EVENTS.newLead, POLL_EVENTS.leadStatus] },
	}),
];
