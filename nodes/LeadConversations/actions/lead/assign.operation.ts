import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LEAD_ID_PREFIX } from '../../../shared/constants';
import { checkBoolean, checkIdPrefix, checkOneOf, firstProblem } from '../../../shared/validation';
import { giveBackTurn, pickByLead, pickByTurn } from '../../helpers/advisorTurns';
import { MAX_WEIGHT, parseRoster } from '../../helpers/roster';
import { leadLocator } from '../common.descriptions';
import { collectionParameter, locatorValue, optionalParameter, throwIfInvalid } from '../input';
import { requestRecord } from '../record';
import { optionsCollection } from '../../../shared/descriptions';

const ROSTER_SOURCES = ['advisors', 'expression'] as const;
const TURNS = ['rotation', 'spread'] as const;

const properties: INodeProperties[] = [
	leadLocator,
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
				description:
					'A list of rows, e.g. an n8n Data Table read by a Data Table node before this one, so the roster is edited without touching the workflow',
			},
		],
		default: 'advisors',
	},
	{
		displayName: 'Advisors',
		name: 'advisors',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Advisor',
		default: {},
		displayOptions: { show: { rosterSource: ['advisors'] } },
		options: [
			{
				displayName: 'Advisor',
				name: 'advisor',
				values: [
					{
						displayName: 'User ID',
						name: 'userId',
						type: 'string',
						default: '',
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
				],
			},
		],
	},
	{
		displayName: 'Roster Rows',
		name: 'rosterRows',
		type: 'json',
		default: '',
		required: true,
		placeholder: "={{ $('Roster').all().map(item => item.json) }}",
		displayOptions: { show: { rosterSource: ['expression'] } },
		description:
			'A list of advisors, each with user_id (or userId), optional weight (default 1) and optional away (default false)',
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
				description:
					'Strict weighted rotation kept in memory: no advisor gets a second lead while another waits. Restarts from the first advisor when n8n restarts. Not for queue mode.',
			},
			{
				name: 'Spread by Lead ID (Queue Mode)',
				value: 'spread',
				description:
					'The lead ID decides, so every worker and every retry picks the same advisor; even over many leads, not turn by turn',
			},
		],
		default: 'rotation',
	},
	{
		displayName: 'Also Set Status to Assigned',
		name: 'setStatus',
		type: 'boolean',
		default: true,
		description: 'Whether to set the lead\'s status to "assigned" together with the advisor',
	},
	optionsCollection([
		{
			displayName: 'Reassign a Lead That Already Has an Advisor',
			name: 'reassign',
			type: 'boolean',
			default: false,
			description:
				'Whether a lead that already has an advisor gets the pick of the roster too. Off, such a lead is left as it is, so duplicate runs and assignments made by a person are never overwritten.',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['assign'] } },
	properties,
);

/** The roster rows as given: the node's own list, or an expression's list (or its JSON text). */
function rosterRows(this: IExecuteFunctions, source: unknown, itemIndex: number): unknown {
	if (source === 'advisors') {
		const advisors = this.getNodeParameter('advisors', itemIndex, {}) as IDataObject;
		return (advisors?.advisor as IDataObject[] | undefined) ?? [];
	}
	const rows = this.getNodeParameter('rosterRows', itemIndex, '') as unknown;
	if (typeof rows !== 'string') return rows;
	if (rows.trim() === '') return [];
	try {
		return JSON.parse(rows) as unknown;
	} catch {
		return rows;
	}
}

interface Choice {
	advisor: string;
	leftAsItWas: boolean;
	reason: string;
}

/** What happens to a lead with advisor `current` (null: none), given the roster's pick. */
export function decide(current: unknown, pick: () => string, reassign: boolean): Choice {
	const hasAdvisor = typeof current === 'string' && current !== '';
	if (hasAdvisor && !reassign) {
		return { advisor: current, leftAsItWas: true, reason: 'already had an advisor' };
	}
	const advisor = pick();
	if (hasAdvisor && advisor === current) {
		return { advisor, leftAsItWas: true, reason: 'already had the advisor picked' };
	}
	return { advisor, leftAsItWas: false, reason: hasAdvisor ? 'reassigned' : 'assigned' };
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const leadId = locatorValue.call(this, 'lead', itemIndex);
	const source = optionalParameter.call(this, 'rosterSource', itemIndex, 'advisors');
	const turns = optionalParameter.call(this, 'turns', itemIndex, 'rotation');
	const setStatus = optionalParameter.call(this, 'setStatus', itemIndex, true);
	const reassign = collectionParameter.call(this, 'options', itemIndex).reassign ?? false;
	const rosterLabel = source === 'expression' ? 'Roster Rows' : 'Advisors';
	const { roster, problem } = parseRoster(rosterLabel, rosterRows.call(this, source, itemIndex));
	throwIfInvalid.call(
		this,
		itemIndex,
		firstProblem(
			checkIdPrefix('Lead', leadId, LEAD_ID_PREFIX),
			checkOneOf('Roster Source', source, ROSTER_SOURCES),
			checkOneOf('Turns', turns, TURNS),
			checkBoolean('Also Set Status to Assigned', setStatus),
			checkBoolean('Reassign a Lead That Already Has an Advisor', reassign),
			problem,
		),
	);

	const address = { collection: 'leads', label: 'Lead', id: leadId };
	const lead = await requestRecord.call(this, 'GET', address, { itemIndex });
	// Rotations are kept per workflow and node, so two assigning nodes keep separate turns.
	const turnKey = `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id ?? this.getNode().name}`;
	const pick = () =>
		turns === 'spread' ? pickByLead(leadId, roster) : pickByTurn(turnKey, leadId, roster);
	const choice = decide(lead.assigned_to, pick, reassign === true);
	if (choice.leftAsItWas) return [{ ...lead, assignment: { ...choice } }];

	const body: IDataObject = { assigned_to: choice.advisor };
	if (setStatus === true) body.status = 'assigned';
	let assigned = false;
	try {
		const updated = await requestRecord.call(this, 'PATCH', address, { itemIndex, body });
		assigned = true;
		return [{ ...updated, assignment: { ...choice } }];
	} finally {
		if (!assigned && turns === 'rotation') giveBackTurn(turnKey, leadId, choice.advisor, roster);
	}
}
