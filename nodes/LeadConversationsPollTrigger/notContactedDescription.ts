// The fields of Assigned Lead Not Contacted: the wait, and what "contacted" means and costs.

import type { INodeProperties } from 'n8n-workflow';

import { POLL_EVENTS } from './events';

const showForEvent = { show: { event: [POLL_EVENTS.assignedNotContacted] } };

export const notContactedProperties: INodeProperties[] = [
	{
		displayName:
			"Contacted means a human message in one of the lead's conversations over a minute after the assignment, so your workflow's own notice does not count. A call made outside the service is not seen: move such a lead out of Assigned. Each poll costs 1 request per 100 assigned leads, plus 1 or 2 per lead whose wait ended; the first one only notes the leads already assigned.",
		name: 'notContactedNotice',
		type: 'notice',
		default: '',
		displayOptions: showForEvent,
	},
	{
		displayName: 'Wait Amount',
		name: 'waitAmount',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 15,
		description:
			"How long an assigned lead may wait for its advisor before it is announced, counted on the service's clock from when the trigger first sees it with that advisor; 1 minute to 30 days in all",
		displayOptions: showForEvent,
	},
	{
		displayName: 'Wait Unit',
		name: 'waitUnit',
		type: 'options',
		options: [
			{ name: 'Minutes', value: 'minutes' },
			{ name: 'Hours', value: 'hours' },
			{ name: 'Days', value: 'days' },
		],
		default: 'minutes',
		description: 'The unit of Wait Amount',
		displayOptions: showForEvent,
	},
];
