// The roster fields of Lead → Assign: where the advisors come from, each advisor's weight, away
// flag, optional rule, working hours and capacity. The operation itself is assign.operation.ts.
// Since version 1.2 an entered advisor keeps the rule under Rule and the shift under Shift and
// Capacity; nodes saved before keep the four rule fields beside the User ID, where they were.

import type { DisplayCondition, INodeProperties } from 'n8n-workflow';

import { optionsOf } from '../../../shared/labels';
import { RULE_CHANNELS, RULE_INTENTS } from '../../helpers/advisorRules';
import { MAX_WEIGHT } from '../../helpers/roster';

export const ROSTER_EXAMPLE = "{{ $('Roster').all() }}";

const identityFields: INodeProperties[] = [
	{
		displayName: 'User ID',
		name: 'userId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. user_ana_lopez',
		description: "The sales advisor's user ID in the service",
	},
	{
		displayName: 'Weight',
		name: 'weight',
		type: 'number',
		typeOptions: { minValue: 0.01, maxValue: MAX_WEIGHT },
		default: 1,
		description: 'Share of leads relative to the others: 2 gets twice as many as 1',
	},
	{
		displayName: 'Away',
		name: 'away',
		type: 'boolean',
		default: false,
		description: 'Whether the advisor is away and gets no leads for now',
	},
];

const ruleFields: INodeProperties[] = [
	{
		displayName: 'Channels',
		name: 'channels',
		type: 'multiOptions',
		options: optionsOf(RULE_CHANNELS),
		default: [],
		description: 'Rule: only leads that came from one of these channels. None: any channel.',
	},
	{
		displayName: 'Intents',
		name: 'intents',
		type: 'multiOptions',
		options: optionsOf(RULE_INTENTS),
		default: [],
		description: 'Rule: only leads with one of these intents. None: any intent.',
	},
	{
		displayName: 'Min Score',
		name: 'minScore',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100 },
		default: 0,
		description: 'Rule: only leads scoring at least this. 0: any score.',
	},
	{
		displayName: 'Vehicle Words',
		name: 'vehicleWords',
		type: 'string',
		default: '',
		placeholder: 'e.g. hilux, ranger, pickup',
		description:
			'Rule: only leads whose vehicle interest contains one of these words (comma-separated, any case). Empty: any vehicle.',
	},
];

const shiftFields: INodeProperties = {
	displayName: 'Shift and Capacity',
	name: 'shift',
	type: 'collection',
	placeholder: 'Add Shift or Capacity',
	default: {},
	options: [
		{
			displayName: 'Working Hours',
			name: 'hours',
			type: 'string',
			default: '',
			placeholder: 'e.g. Mon-Fri 09:00-17:00; Sat 10:00-14:00',
			description:
				"When the advisor takes leads, on the service's clock. Outside them the lead goes to someone on shift. Empty: always.",
		},
		{
			displayName: 'Time Zone',
			name: 'timeZone',
			type: 'string',
			default: '',
			placeholder: 'e.g. America/Mexico_City',
			description: "The IANA time zone of the Working Hours. Empty: the node's Time Zone option.",
		},
		{
			displayName: 'Capacity',
			name: 'capacity',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 10,
			description:
				'The most leads in status assigned the advisor may hold; a full advisor is passed over',
		},
	],
};

/** Version 1.2 on: the rule in a collection, so an advisor without one is a short row. */
const advisorFields: INodeProperties[] = [
	...identityFields,
	{
		displayName: 'Rule',
		name: 'rule',
		type: 'collection',
		placeholder: 'Add Rule',
		default: {},
		description: 'Which leads the advisor takes. None: the leads no rule fits.',
		options: ruleFields,
	},
	shiftFields,
];

/** Versions 1 and 1.1: the rule fields beside the User ID, as saved workflows hold them. */
const advisorFieldsBefore12: INodeProperties[] = [...identityFields, ...ruleFields, shiftFields];

/** From 1.2 an empty list is explained by advisorsEmptyNotice, not n8n's generic count rule. */
const advisorsField = (
	values: INodeProperties[],
	versions: DisplayCondition,
	minRequiredFields?: number,
): INodeProperties => ({
	displayName: 'Advisors',
	name: 'advisors',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, ...(minRequiredFields ? { minRequiredFields } : {}) },
	placeholder: 'Add Advisor',
	default: {},
	required: true,
	displayOptions: { show: { rosterSource: ['advisors'], '@version': [versions] } },
	description:
		'The advisors who take leads. An advisor with a rule (channels, intents, min score, vehicle words) gets the leads that fit it; advisors without a rule get the leads no rule fits. Working hours and a capacity limit who is picked now.',
	options: [{ displayName: 'Advisor', name: 'advisor', values }],
});

export const rosterFields: INodeProperties[] = [
	{
		displayName: 'Roster Source',
		name: 'rosterSource',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Enter Advisors Below',
				value: 'advisors',
				description: 'List the advisors in this node',
			},
			{
				name: 'From an Expression',
				value: 'expression',
				description: 'Rows of an earlier node, such as an n8n Data Table',
			},
		],
		default: 'advisors',
		description:
			'Where the advisors come from. A Data Table read by an earlier node lets a sales manager edit the roster without touching the workflow.',
	},
	{
		// Shown while Advisors is empty, in place of n8n's generic "At least 1 field is required".
		displayName:
			'Add at least one advisor with Add Advisor, or read the roster from a Data Table with Roster Source: From an Expression',
		name: 'advisorsEmptyNotice',
		type: 'notice',
		default: '',
		displayOptions: {
			show: { rosterSource: ['advisors'], '@version': [{ _cnd: { gte: 1.2 } }] },
			// A root path ('/…'): n8n 1.x resolves a parameter's dependencies by top-level name and
			// never settles on a dotted one, which broke every operation of the node there.
			hide: { '/advisors.advisor': [{ _cnd: { exists: true } }] },
		},
	},
	advisorsField(advisorFields, { _cnd: { gte: 1.2 } }),
	advisorsField(advisorFieldsBefore12, { _cnd: { lt: 1.2 } }, 1),
	{
		displayName: 'Roster Rows',
		name: 'rosterRows',
		type: 'json',
		default: '',
		required: true,
		placeholder: `=${ROSTER_EXAMPLE}`,
		displayOptions: { show: { rosterSource: ['expression'] } },
		hint: `For a Data Table node named Roster before this one: ${ROSTER_EXAMPLE}, with the double braces`,
		description:
			'A list of advisors (rows or items), each with user_id (or userId) and optional weight (default 1), away (default false), rule columns channels, intents, min_score, vehicle_words, and hours (working hours, e.g. Mon-Fri 09:00-17:00), time_zone and capacity',
	},
	{
		displayName: 'Turns',
		name: 'turns',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Take Turns (Single Process)',
				value: 'rotation',
				description: 'Strict weighted rotation kept in memory',
			},
			{
				name: 'Spread by Lead ID (Queue Mode)',
				value: 'spread',
				description: 'The lead ID decides: the same advisor on every worker',
			},
			{
				name: 'Least Loaded',
				value: 'leastLoaded',
				description: 'Fewest leads in status assigned, counted from the service',
			},
		],
		default: 'rotation',
		description:
			'How the next advisor is chosen. Take Turns: no advisor gets a second lead while another waits; it restarts from the first advisor when n8n restarts and is not for queue mode. Spread by Lead ID: every worker and retry picks the same advisor; even over many leads, not turn by turn. Least Loaded: the advisor holding the fewest assigned leads (a tie goes to the higher weight, then the first listed); it reads the assigned leads once per run.',
	},
];
