// The fields of Assigned Lead Not Contacted: the wait, and what "contacted" means and costs.

import type { INodeProperties } from 'n8n-workflow';

import { POLL_EVENTS } from './events';

const showForEvent = { show: { event: [POLL_EVENTS.assignedNotContacted] } };

export const notContactedProperties: INodeProperties[] = [
	{
		displayName:
			"Contacted: someone wrote to the lead in the service more than 60 s after the assignment, so your workflow's own notice does not count. The service cannot show a call or a text made outside it: to mark such a lead as handled, move it out of Assigned (e.g. to In Conversation or Closed) or post a message in the service. Cost per poll: ⌈A/100⌉ requests for A assigned leads, plus 1 per lead whose wait ended (+1 per conversation with messages since, usually 0 or 1). The first poll after activation only notes the leads already assigned.",
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
