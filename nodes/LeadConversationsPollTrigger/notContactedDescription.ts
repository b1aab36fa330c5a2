// The fields of Assigned Lead Not Contacted: the wait, and what "contacted" means and costs.

import type { INodeProperties } from 'n8n-workflow';

import { POLL_EVENTS } from './events';
import { COUNT_WAIT } from './waitClock';

const showForEvent = { show: { event: [POLL_EVENTS.assignedNotContacted] } };
const showForOpeningHours = {
	show: { event: [POLL_EVENTS.assignedNotContacted], countWait: [COUNT_WAIT.openingHours] },
};

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
	{
		displayName: 'Count Wait',
		name: 'countWait',
		type: 'options',
		options: [
			{
				name: 'Around the Clock',
				value: COUNT_WAIT.aroundTheClock,
				description: 'Every minute counts, day and night',
			},
			{
				name: 'Only in Opening Hours',
				value: COUNT_WAIT.openingHours,
				description:
					'Only minutes while the dealership is open count; a lead assigned while closed starts waiting at the next opening',
			},
		],
		default: 'aroundTheClock',
		description: 'Which minutes count toward the wait',
		displayOptions: showForEvent,
	},
	{
		displayName: 'Opening Hours',
		name: 'openingHours',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'Mon-Fri 09:00-20:00; Sat 09:00-14:00',
		description:
			'Days and hours open, separated by ; or new lines, such as Mon-Fri 09:00-13:00, 14:00-20:00; Sat 09:00-14:00. Days not named are closed; 22:00-02:00 runs past midnight. An expression can read it from a Data Table.',
		displayOptions: showForOpeningHours,
	},
	{
		displayName: 'Time Zone',
		name: 'timeZone',
		type: 'string',
		default: '',
		placeholder: 'Europe/Madrid',
		description: 'The IANA time zone of the opening hours and closed dates',
		hint: "Empty: the workflow's time zone (Workflow Settings), else n8n's",
		displayOptions: showForOpeningHours,
	},
	{
		displayName: 'Closed Dates',
		name: 'closedDates',
		type: 'string',
		default: '',
		placeholder: '2026-12-25, 2027-01-01',
		description:
			'Days closed all day, such as holidays: YYYY-MM-DD separated by commas, or an expression giving a list',
		displayOptions: showForOpeningHours,
	},
];
