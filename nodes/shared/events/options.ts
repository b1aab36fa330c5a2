// Options that the trigger and Event: Verify offer alike, since Verify outputs an event as the
// trigger does: the shape of the output, and the replay window. And the event list that the
// trigger and Webhook Subscription → Create offer alike.

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { SCORE_MAX, SCORE_MIN, WEBHOOK_ALL_EVENTS, WEBHOOK_EVENTS } from '../constants';
import { optionsOf } from '../labels';

import {
	DEFAULT_MAX_EVENT_AGE_MINUTES,
	MAX_MAX_EVENT_AGE_MINUTES,
	MIN_MAX_EVENT_AGE_MINUTES,
} from './replayWindow';

/** Whole payload or the event's data only (see `outputJson`). */
export const eventOutputOption: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options: [
		{
			name: 'Whole Payload',
			value: 'payload',
			description: 'Event, timestamp, organization_id and data',
		},
		{ name: 'Data Only', value: 'data', description: 'Only the event-specific data object' },
	],
	default: 'payload',
};

/** A lead condition on the score, shared by both triggers; `description` says when it applies. */
export function minimumScoreOption(description: string): INodeProperties {
	return {
		displayName: 'Only If Score Is At Least',
		name: 'minimumScore',
		type: 'number',
		typeOptions: { minValue: SCORE_MIN, maxValue: SCORE_MAX },
		default: 0,
		description,
	};
}

/** The replay window's size; `description` says what the node does with an event outside it. */
export function maxEventAgeOption(description: string): INodeProperties {
	return {
		// Short enough for the panel's label column; the unit is in the hint.
		displayName: 'Max Event Age',
		name: 'maxEventAge',
		type: 'number',
		typeOptions: { minValue: MIN_MAX_EVENT_AGE_MINUTES, maxValue: MAX_MAX_EVENT_AGE_MINUTES },
		default: DEFAULT_MAX_EVENT_AGE_MINUTES,
		hint: `In minutes, from ${MIN_MAX_EVENT_AGE_MINUTES} to ${MAX_MAX_EVENT_AGE_MINUTES.toLocaleString('en-US')}`,
		description,
	};
}

/**
 * The events list of the trigger and of Webhook Subscription → Create: the same names, sorted,
 * each with what it is. "All Events" first, as n8n's own triggers list it.
 */
export const webhookEventOptions: INodePropertyOptions[] = [
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

/** Events, with `description` saying what the chosen events do in this node. */
export function webhookEventsProperty(description: string): INodeProperties {
	return {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: webhookEventOptions,
		default: ['lead.qualified'],
		description: `${description} An event your account sends that is not listed can be typed in Other Event Names; All Events receives it too`,
	};
}

/** Typed event names, placed right below Events in both nodes. */
export const otherEventNamesProperty: INodeProperties = {
	displayName: 'Other Event Names',
	name: 'otherEvents',
	type: 'string',
	default: '',
	placeholder: 'appointment.cancelled, conversation.closed',
	description:
		'Names of events not in the list above, separated by commas, spelled as the service sends them',
};
