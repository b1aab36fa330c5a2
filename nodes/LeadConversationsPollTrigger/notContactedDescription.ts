// The fields of Assigned Lead Not Contacted and Assigned Lead Contacted: the wait, what counts as
// contact, and what a poll costs. Version 2 tells the workflow's notices apart by their text;
// version 1 of Assigned Lead Not Contacted keeps its 60-second grace (contactRule.ts).

import type { INodeProperties } from 'n8n-workflow';

import { EXAMPLE_NOTICES } from './contactRule';
import { POLL_EVENTS } from './events';
import { COUNT_WAIT } from './waitClock';

const notContacted = POLL_EVENTS.assignedNotContacted;
const contacted = POLL_EVENTS.assignedContacted;
const showForEvent = { show: { event: [notContacted] } };
const V1 = [1];
const FROM_V2 = [{ _cnd: { gte: 2 } }];

const WAIT_START =
	'The wait starts when a poll first sees the lead in Assigned with its advisor, at the time the service gives as its last update (normally the assignment itself).';
const AT_ACTIVATION =
	'Leads already in Assigned when the workflow is activated are never announced.';
const COUNTS =
	"Contact means a human message in one of the lead's conversations at or after the wait's start, however soon, unless it is one of the Workflow Notices below. An AI message, the lead's own message, a phone call's transcript and a call made outside the service are not seen as contact.";

const workflowNotices: INodeProperties = {
	displayName: 'Workflow Notices',
	name: 'workflowNotices',
	type: 'string',
	typeOptions: { rows: 3 },
	default: EXAMPLE_NOTICES.join('\n'),
	description:
		'The messages your workflows post to the lead themselves, one per line (or a list of texts from an expression). A human message whose text, trimmed and ignoring case, equals or begins with one of them is not contact. Each at least 8 characters; empty: every human message is contact.',
};
const showForOpeningHours = {
	show: { event: [notContacted, contacted], countWait: [COUNT_WAIT.openingHours] },
};

export const notContactedProperties: INodeProperties[] = [
	{
		displayName: `Contacted means a human message in one of the lead's conversations over a minute after the wait's start, so your workflow's own notice does not count. ${WAIT_START} ${AT_ACTIVATION} Each poll costs 1 request per 100 leads in Assigned, plus 1 or 2 per lead whose wait ended.`,
		name: 'notContactedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: [notContacted], '@version': V1 } },
	},
	{
		displayName: `${COUNTS} ${WAIT_START} ${AT_ACTIVATION} Each poll costs 1 request per 100 leads in Assigned, plus 1 or 2 per lead whose wait ended.`,
		name: 'notContactedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: [notContacted], '@version': FROM_V2 } },
	},
	{
		displayName: `Starts once per lead and advisor, when the advisor first reaches a lead in Assigned. ${COUNTS} ${WAIT_START} ${AT_ACTIVATION} Each poll costs 1 request per 100 leads in Assigned, plus 1 or 2 per waiting lead whose last activity moved since the poll before.`,
		name: 'contactedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: [contacted] } },
	},
	{
		...workflowNotices,
		displayOptions: { show: { event: [notContacted, contacted], '@version': FROM_V2 } },
	},
	{ ...workflowNotices, displayOptions: { show: { event: [contacted], '@version': V1 } } },
	{
		displayName: 'Wait Amount',
		name: 'waitAmount',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 15,
		description:
			"How long a lead may wait in Assigned for its advisor's first contact before it is announced, on the service's clock from the wait's start; 1 minute to 30 days in all",
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
		description:
			'Which minutes count toward the wait; for Assigned Lead Contacted, toward response_open_minutes (empty when around the clock)',
		displayOptions: { show: { event: [notContacted, contacted] } },
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
