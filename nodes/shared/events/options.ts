// Options that the trigger and Event: Verify offer alike, since Verify outputs an event as the
// trigger does: the shape of the output, and the replay window.

import type { INodeProperties } from 'n8n-workflow';

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

/** The replay window's size; `description` says what the node does with an event outside it. */
export function maxEventAgeOption(description: string): INodeProperties {
	return {
		displayName: 'Maximum Event Age (Minutes)',
		name: 'maxEventAge',
		type: 'number',
		typeOptions: { minValue: MIN_MAX_EVENT_AGE_MINUTES, maxValue: MAX_MAX_EVENT_AGE_MINUTES },
		default: DEFAULT_MAX_EVENT_AGE_MINUTES,
		description,
	};
}
