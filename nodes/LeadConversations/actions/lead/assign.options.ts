// The Options of Lead → Assign: hand-offs between advisors, advisors to skip, what happens when
// everyone is full, and the time zone of the advisors' working hours.

import type { INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';

export const PASS_ON = 'Pass On to Another Advisor';
export const REASSIGN = 'Reassign Assigned Leads';
export const SKIP = 'Skip Advisors';
export const WHEN_FULL_LABEL = 'When Everyone Is Full';
export const TIME_ZONE_LABEL = 'Time Zone';

export const assignOptions: INodeProperties = optionsCollection([
	{
		displayName: PASS_ON,
		name: 'passOn',
		type: 'boolean',
		default: false,
		description:
			'Whether the lead goes to an advisor other than the one it has, e.g. when that advisor did not contact it. When no one else is available the node stops with an error, so the workflow can escalate.',
	},
	{
		displayName: REASSIGN,
		name: 'reassign',
		type: 'boolean',
		default: false,
		description:
			'Whether a lead that already has an advisor gets the pick of the roster too. Off, such a lead is left as it is, so duplicate runs and assignments made by a person are never overwritten.',
	},
	{
		displayName: SKIP,
		name: 'skipAdvisors',
		type: 'string',
		default: '',
		placeholder: 'e.g. user_ana_lopez, user_bruno_diaz',
		description:
			"User IDs never picked for this lead: comma-separated, or an expression giving a list, such as the missed_by field of the Polling Trigger's Assigned Lead Not Contacted event",
	},
	{
		displayName: TIME_ZONE_LABEL,
		name: 'timeZone',
		type: 'string',
		default: '',
		placeholder: 'e.g. America/Mexico_City',
		description:
			"The IANA time zone of the advisors' Working Hours, unless a row gives its own. Empty: the workflow's time zone.",
	},
	{
		displayName: WHEN_FULL_LABEL,
		name: 'whenFull',
		type: 'options',
		options: [
			{
				name: 'Assign the Least Loaded',
				value: 'leastLoaded',
				description: 'No lead is left behind; the output says the advisor was full',
			},
			{
				name: 'Leave Unassigned',
				value: 'leave',
				description: 'The lead is output as it was, with the reason',
			},
			{
				name: 'Stop With an Error',
				value: 'error',
				description: 'The item fails, so the workflow can escalate',
			},
		],
		default: 'leastLoaded',
		description:
			'What happens when every advisor who could take the lead holds as many assigned leads as their Capacity',
	},
]);
