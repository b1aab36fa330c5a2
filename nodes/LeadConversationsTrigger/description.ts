import type { INodeProperties, INodePropertyOptions, TriggerPanelDefinition } from 'n8n-workflow';

import { LEAD_API_CHANNEL, LEAD_CHANNELS, LEAD_INTENTS, LEAD_STATUSES } from '../shared/constants';
import {
	eventOutputOption,
	maxEventAgeOption,
	minimumScoreOption,
	otherEventNamesProperty,
	webhookEventsProperty,
} from '../shared/events/options';
import { FLAT_COLUMNS_DETAIL } from '../shared/flatLead';
import { optionsOf } from '../shared/labels';
import { CURRENT_LEAD_FLAT } from './settings';
import { optionsCollection } from '../shared/descriptions';

/**
 * The panel n8n shows beside the trigger's parameters, in place of its generic "make an event
 * happen" text: what Execute step needs (an https:// URL the service can reach) and the way out.
 */
export const triggerPanel: TriggerPanelDefinition = {
	// Shown before Execute step is clicked: what to do, not "Listening", which it is not yet.
	header: 'Receive a test event from the lead service',
	executionsHelp: {
		inactive:
			'<b>While building</b>, click Execute step: the trigger subscribes with its test URL and waits. Then make the event happen in the service (for a new lead, create one) and it appears here.<br /><br />The service delivers only to <b>https://</b> addresses that it can reach. If n8n runs on plain http or on your own machine, set N8N_WEBHOOK_URL to a public https:// address (a tunnel while testing; N8N_PROXY_HOPS=1 behind a proxy that ends TLS), or use the <b>Lead Conversations Polling Trigger</b>, which needs no public address.<br /><br /><b>To run automatically</b>, publish the workflow: the trigger subscribes with its production URL.',
		active:
			'The workflow is published: the service delivers events to the production URL, and each starts an execution, listed in the <a data-key="executions">executions list</a>.<br /><br />To see an event here while editing, click Execute step and make the event happen in the service.',
	},
	activationHint:
		'Once the workflow is built, publish it: the trigger subscribes on its own and every event starts an execution.',
};

export const triggerProperties: INodeProperties[] = [
	webhookEventsProperty('The events that start this workflow.'),
	otherEventNamesProperty,
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
			"In the service's dashboard open Settings, Webhooks, Add Endpoint, enter this node's Production URL (shown above under Webhook URLs) and choose the same events. Put the signing secret the dashboard shows into a credential in the Signing Secret box at the top.",
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
	optionsCollection([
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
		minimumScoreOption(
			"Start the workflow for a lead event only when the lead's score is at least this. Other events are not filtered.",
		),
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
			// The dropdown shows an option's description on one or two lines: the detail is here.
			description: `Current Lead, Flat reads the lead as it is now (as Fetch Current Lead does) and gives the Flat columns of Lead → Get Many and the Polling Trigger. ${FLAT_COLUMNS_DETAIL} When the lead cannot be read, the item holds the lead ID and current_lead_error only.`,
			options: [
				...(eventOutputOption.options as INodePropertyOptions[]),
				{
					name: 'Current Lead, Flat',
					value: CURRENT_LEAD_FLAT,
					description: 'The lead as it is now, in spreadsheet columns',
				},
			],
		},
	]),
];
