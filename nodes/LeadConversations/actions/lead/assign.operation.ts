import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { LEAD_ID_PREFIX } from '../../../shared/constants';
import { checkBoolean, checkIdPrefix, checkOneOf, firstProblem } from '../../../shared/validation';
import { optionsCollection } from '../../../shared/descriptions';
import { giveBackTurn, pickByLead, pickByTurn } from '../../helpers/advisorTurns';
import type { Advisor } from '../../helpers/roster';
import { parseRoster } from '../../helpers/roster';
import { checkSkipLeavesSomeone, planAssignment, skipList } from '../../helpers/assignPlan';
import { leadLocator } from '../common.descriptions';
import { collectionParameter, locatorValue, optionalParameter, throwIfInvalid } from '../input';
import { requestRecord } from '../record';
import { ROSTER_EXAMPLE, rosterFields } from './assign.fields';

const ROSTER_SOURCES = ['advisors', 'expression'] as const;
const TURNS = ['rotation', 'spread'] as const;
const PASS_ON = 'Pass On to Another Advisor';
const REASSIGN = 'Reassign Assigned Leads';
const SKIP = 'Skip Advisors';

const properties: INodeProperties[] = [
	leadLocator,
	...rosterFields,
	{
		displayName: 'Also Set Status to Assigned',
		name: 'setStatus',
		type: 'boolean',
		default: true,
		description: 'Whether to set the lead\'s status to "assigned" together with the advisor',
	},
	optionsCollection([
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

/** Roster Rows typed as plain text that reads like an expression: how to make it one. */
export function rosterRowsTextProblem(source: unknown, rows: unknown): string | undefined {
	if (source !== 'expression' || typeof rows !== 'string') return undefined;
	if (!/\$\(|\$json|\$input|\.all\(\)/.test(rows)) return undefined;
	return `Roster Rows is plain text, not an expression: write ${ROSTER_EXAMPLE} with the double braces (got "${rows.trim()}")`;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const leadId = locatorValue.call(this, 'lead', itemIndex);
	const source = optionalParameter.call(this, 'rosterSource', itemIndex, 'advisors');
	const turns = optionalParameter.call(this, 'turns', itemIndex, 'rotation');
	const setStatus = optionalParameter.call(this, 'setStatus', itemIndex, true);
	const options = collectionParameter.call(this, 'options', itemIndex);
	const reassign = options.reassign ?? false;
	const passOn = options.passOn ?? false;
	const rosterLabel = source === 'expression' ? 'Roster Rows' : 'Advisors';
	const rows = rosterRows.call(this, source, itemIndex);
	const { roster, problem } = parseRoster(rosterLabel, rows);
	const { skip, problem: skipProblem } = skipList(SKIP, options.skipAdvisors);
	throwIfInvalid.call(
		this,
		itemIndex,
		firstProblem(
			checkIdPrefix('Lead', leadId, LEAD_ID_PREFIX),
			checkOneOf('Roster Source', source, ROSTER_SOURCES),
			checkOneOf('Turns', turns, TURNS),
			checkBoolean('Also Set Status to Assigned', setStatus),
			checkBoolean(PASS_ON, passOn),
			checkBoolean(REASSIGN, reassign),
			rosterRowsTextProblem(source, rows),
			problem,
			skipProblem,
			checkSkipLeavesSomeone(SKIP, roster, skip),
		),
	);

	const address = { collection: 'leads', label: 'Lead', id: leadId };
	const lead = await requestRecord.call(this, 'GET', address, { itemIndex });
	// Rotations are kept per workflow and node, so two assigning nodes keep separate turns.
	const turnKey = `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id ?? this.getNode().name}`;
	const pick = (eligible: Advisor[]) =>
		turns === 'spread' ? pickByLead(leadId, eligible) : pickByTurn(turnKey, leadId, eligible);
	const choices = { reassign: reassign === true, passOn: passOn === true, skip };
	const plan = planAssignment(leadId, lead, roster, choices, pick);
	if (!plan.assignment) {
		throw new NodeOperationError(this.getNode(), `${plan.problem} [item ${itemIndex}]`, {
			itemIndex,
			description: 'The lead was read and left as it was.',
		});
	}
	const assignment = plan.assignment;
	if (assignment.leftAsItWas) return [{ ...lead, assignment: { ...assignment } }];

	const body: IDataObject = { assigned_to: assignment.advisor };
	if (setStatus === true) body.status = 'assigned';
	let assigned = false;
	try {
		const updated = await requestRecord.call(this, 'PATCH', address, { itemIndex, body });
		assigned = true;
		return [{ ...updated, assignment: { ...assignment } }];
	} finally {
		if (!assigned && turns === 'rotation') {
			giveBackTurn(turnKey, leadId, assignment.advisor, plan.eligible);
		}
	}
}
