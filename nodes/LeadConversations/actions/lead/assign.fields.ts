// The roster fields of Lead → Assign: where the advisors come from, each advisor's weight, away
// flag and optional rule. The operation itself is assign.operation.ts.

import type { INodeProperties } from 'n8n-workflow';

import { optionsOf } from '../../../shared/labels';
import { RULE_CHANNELS, RULE_INTENTS } from '../../helpers/advisorRules';
import { MAX_WEIGHT } from '../../helpers/roster';

export const ROSTER_EXAMPLE = "{{ $('Roster').all() }}";

const advisorFields: INodeProperties[] = [
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
		typeOptions: { minValue: 0.01, maxValue: MAX_WEIGHT, numberPrecision: 2 },
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
			show: { rosterSource: ['advisors'] },
			hide: { 'advisors.advisor': [{ _cnd: { exists: true } }] },
		},
	},
	{
		displayName: 'Advisors',
		name: 'advisors',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Advisor',
		default: {},
		required: true,
		displayOptions: { show: { rosterSource: ['advisors'] } },
		description:
			'The advisors who take leads. An advisor with a rule (channels, intents, min score, vehicle words) gets the leads that fit it; advisors without a rule get the leads no rule fits.',
		options: [{ displayName: 'Advisor', name: 'advisor', values: advisorFields }],
	},
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
			'A list of advisors (rows or items), each with user_id (or userId) and optional weight (default 1), away (default false) and rule columns channels, intents, min_score, vehicle_words',
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
		],
		default: 'rotation',
		description:
			'How the next advisor is chosen. Take Turns: no advisor gets a second lead while another waits; it restarts from the first advisor when n8n restarts and is not for queue mode. Spread by Lead ID: every worker and retry picks the same advisor; even over many leads, not turn by turn.',
	},
];
