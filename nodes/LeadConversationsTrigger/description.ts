import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	LEAD_API_CHANNEL,
	LEAD_CHANNELS,
	LEAD_INTENTS,
	LEAD_STATUSES,
	SCORE_MAX,
	SCORE_MIN,
	WEBHOOK_ALL_EVENTS,
	WEBHOOK_EVENTS,
} from '../shared/constants';
import { eventOutputOption, maxEventAgeOption } from '../shared/events/options';
import { FLAT_OUTPUT_DESCRIPTION } from '../shared/flatLead';
import { optionsOf } from '../shared/labels';
import { CURRENT_LEAD_FLAT } from './settings';

const eventOptions: INodePropertyOptions[] = [
	{
		name: 'All Events',
		value: WEBHOOK_ALL_EVENTS,
		description: 'Every event the service sends, including ones added later',
	},
	...optionsOf(WEBHOOK_EVENTS).map((option) => ({
		...option,
		description: `The service sends "${String(option.value)}"`,
	})),
];

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: eventOptions,
		default: ['lead.qualified'],
		description:
			'The events that start this workflow. The specification confirms only "lead.qualified"; the other names are the ones the service is expected to send.',
	},
	{
		displayName: 'Other Event Names',
		name: 'otherEvents',
		type: 'string',
		default: '',
		placeholder: 'lead.updated, conversation.closed',
		description:
			'Event names that are not in the list above, separated by commas. They are subscribed to as typed.',
	},
	{
		displayName: 'Subscription',
		name: 'subscription',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Automatic',
				value: 'automatic',
				description:
					'Subscribe through the interface when the workflow is activated and unsubscribe when it is deactivated',
			},
			{
				name: 'Manual',
				value: 'manual',
				description:
					"The endpoint was added in the service's dashboard; put its signing secret into a Signing Secret credential. Nothing is called on activation.",
			},
		],
		default: 'automatic',
	},
	{
		displayName:
			"In the service's dashboard open Settings, Webhooks, Add Endpoint, enter this node's Production URL (shown above under Webhook URLs), choose the same events, and put the signing secret it shows into a Lead Conversations Signing Secret API credential, chosen above",
		name: 'manualNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { subscription: ['manual'] } },
	},
	// Where workflows saved before the Signing Secret credential kept the secret, in plain text.
	// Hidden, and still read when no credential is chosen (settings.ts, legacySigningSecret).
	{
		displayName: 'Signing Secret (Replaced by the Credential)',
		name: 'signingSecret',
		type: 'hidden',
		default: '',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Fetch Current Lead',
				name: 'fetchCurrentLead',
				type: 'boolean',
				default: false,
				description:
					"Whether to read the lead's current values (one GET per event) and add them as current_lead, so later nodes act on today's values rather than those at the time of the event. Appointment and conversation events fetch the lead they belong to.",
			},
			maxEventAgeOption(
				"Deliveries whose event timestamp is older than this, or more than 5 minutes ahead, are refused with 403 and start no run, even when correctly signed: they can only be captured deliveries sent again. The service's last retry comes about 36 minutes after the first attempt.",
			),
			{
				displayName: 'Only If Channel Is One Of',
				name: 'channels',
				type: 'multiOptions',
				options: optionsOf([...LEAD_CHANNELS, LEAD_API_CHANNEL]),
				default: [],
				description:
					'Start the workflow for a lead event only when the lead came from one of these channels. Other events are not filtered.',
			},
			{
				displayName: 'Only If Intent Is One Of',
				name: 'intents',
				type: 'multiOptions',
				options: optionsOf(LEAD_INTENTS),
				default: [],
				description:
					"Start the workflow for a lead event only when the lead's intent is one of these. Other events are not filtered.",
			},
			{
				displayName: 'Only If Score Is At Least',
				name: 'minimumScore',
				type: 'number',
				typeOptions: { minValue: SCORE_MIN, maxValue: SCORE_MAX },
				default: 0,
				description:
					"Start the workflow for a lead event only when the lead's score is at least this. Other events are not filtered.",
			},
			{
				displayName: 'Only If Status Is One Of',
				name: 'statuses',
				type: 'multiOptions',
				options: optionsOf(LEAD_STATUSES),
				default: [],
				description:
					"Start the workflow for a lead event only when the lead's status is one of these. Other events are not filtered.",
			},
			{
				...eventOutputOption,
				options: [
					...(eventOutputOption.options as INodePropertyOptions[]),
					{
						name: 'Current Lead, Flat',
						value: CURRENT_LEAD_FLAT,
						description: `The lead as it is now (read as by Fetch Current Lead), as the Flat columns of Lead → Get Many and the Poll Trigger: ${FLAT_OUTPUT_DESCRIPTION}. When the lead cannot be read, the item holds the lead ID and current_lead_error only.`,
					},
				],
			},
		],
	},
];
