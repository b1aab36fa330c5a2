import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { LEAD_ID_PREFIX } from '../../../shared/constants';
import { checkTimeZone } from '../../../shared/openingHours';
import { dateHeaderMs } from '../../../shared/serviceClock';
import { checkBoolean, checkIdPrefix, checkOneOf, firstProblem } from '../../../shared/validation';
import { giveBackTurn, pickByLead, pickByTurn } from '../../helpers/advisorTurns';
import type { AdvisorLoad } from '../../helpers/advisorLoad';
import { loadOf, oneAssignmentAtATime, recordChange, runLoad } from '../../helpers/advisorLoad';
import type { AssignChoices, Assignment } from '../../helpers/assignPlan';
import {
	checkSkipLeavesSomeone,
	needsAdvisor,
	planAssignment,
	skipList,
} from '../../helpers/assignPlan';
import { WHEN_FULL, chooseAdvisor, leastLoaded } from '../../helpers/chooseAdvisor';
import type { Advisor } from '../../helpers/roster';
import { parseRoster } from '../../helpers/roster';
import { leadLocator } from '../common.descriptions';
import { collectionParameter, locatorValue, optionalParameter, throwIfInvalid } from '../input';
import { requestRecordAnswer } from '../record';
import { ROSTER_EXAMPLE, rosterFields } from './assign.fields';
import {
	PASS_ON,
	REASSIGN,
	SKIP,
	TIME_ZONE_LABEL,
	WHEN_FULL_LABEL,
	assignOptions,
} from './assign.options';

const ROSTER_SOURCES = ['advisors', 'expression'] as const;
const TURNS = ['rotation', 'spread', 'leastLoaded'] as const;

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
	assignOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['assign'] } },
	properties,
);

/** An entered advisor's Rule and Shift and Capacity collections, as the columns of a row. */
function flattenEntered(advisor: IDataObject): IDataObject {
	const { rule, shift, ...fields } = advisor;
	const nested = (value: unknown) =>
		value && typeof value === 'object' ? (value as IDataObject) : {};
	return { ...nested(rule), ...nested(shift), ...fields };
}

/** The roster rows as given: the node's own list, or an expression's list (or its JSON text). */
function rosterRows(this: IExecuteFunctions, source: unknown, itemIndex: number): unknown {
	if (source === 'advisors') {
		const advisors = this.getNodeParameter('advisors', itemIndex, {}) as IDataObject;
		return ((advisors?.advisor as IDataObject[] | undefined) ?? []).map(flattenEntered);
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

/** The advisor's count and Capacity after the change, for the output. */
function loadDetails(assignment: Assignment, roster: Advisor[], load?: AdvisorLoad): IDataObject {
	if (!load || assignment.advisor === null) return {};
	const capacity = roster.find((advisor) => advisor.userId === assignment.advisor)?.capacity;
	const details: IDataObject = { load: loadOf(load, assignment.advisor) };
	if (capacity !== undefined) details.capacity = capacity;
	return details;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const leadId = locatorValue.call(this, 'lead', itemIndex);
	const source = optionalParameter.call(this, 'rosterSource', itemIndex, 'advisors');
	const turns = optionalParameter.call(this, 'turns', itemIndex, 'rotation');
	const setStatus = optionalParameter.call(this, 'setStatus', itemIndex, true);
	const options = collectionParameter.call(this, 'options', itemIndex);
	const reassign = options.reassign ?? false;
	const passOn = options.passOn ?? false;
	const whenFull = options.whenFull ?? 'leastLoaded';
	const timeZone = options.timeZone ?? '';
	const zoneProblem = timeZone === '' ? undefined : checkTimeZone(TIME_ZONE_LABEL, timeZone);
	const defaultZone = timeZone === '' || zoneProblem ? this.getTimezone() : String(timeZone).trim();
	const rosterLabel = source === 'expression' ? 'Roster Rows' : 'Advisors';
	const rows = rosterRows.call(this, source, itemIndex);
	const { roster, problem } = parseRoster(rosterLabel, rows, defaultZone);
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
			checkOneOf(WHEN_FULL_LABEL, whenFull, WHEN_FULL),
			zoneProblem,
			rosterRowsTextProblem(source, rows),
			problem,
			skipProblem,
			checkSkipLeavesSomeone(SKIP, roster, skip),
		),
	);

	// With a count, assignments in this process go one at a time, each on a fresh view of the
	// lead, so runs at the same time neither pass a cap nor give one lead two advisors.
	const counting = turns === 'leastLoaded' || roster.some((a) => a.capacity !== undefined);
	const assign = (): Promise<IDataObject[]> =>
		assignLead.call(this, itemIndex, leadId, roster, {
			choices: { reassign: reassign === true, passOn: passOn === true, skip },
			counting,
			turns: turns as (typeof TURNS)[number],
			whenFull: whenFull as (typeof WHEN_FULL)[number],
			setStatus: setStatus === true,
		});
	return counting ? await oneAssignmentAtATime(this, itemIndex, assign) : await assign();
}

interface AssignSettings {
	choices: AssignChoices;
	counting: boolean;
	turns: (typeof TURNS)[number];
	whenFull: (typeof WHEN_FULL)[number];
	setStatus: boolean;
}

/** Reads the lead, chooses its advisor and writes it: one item of Assign, its input checked. */
async function assignLead(
	this: IExecuteFunctions,
	itemIndex: number,
	leadId: string,
	roster: Advisor[],
	{ choices, counting, turns, whenFull, setStatus }: AssignSettings,
): Promise<IDataObject[]> {
	const address = { collection: 'leads', label: 'Lead', id: leadId };
	const read = await requestRecordAnswer.call(this, 'GET', address, { itemIndex });
	const lead = read.record;
	// Shifts are judged on the service's clock: the moment it answered.
	const atMs = dateHeaderMs(read.headers) ?? Date.now();
	// The load is counted only when something reads it, and only for a lead that needs an advisor.
	let load =
		counting && needsAdvisor(lead, choices) ? await runLoad.call(this, itemIndex) : undefined;
	// Rotations are kept per workflow and node, so two assigning nodes keep separate turns.
	const turnKey = `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id ?? this.getNode().name}`;
	const pick = (eligible: Advisor[]) => {
		if (turns === 'leastLoaded') return leastLoaded(eligible, load as AdvisorLoad);
		if (turns === 'spread') return pickByLead(leadId, eligible);
		return pickByTurn(turnKey, leadId, eligible);
	};
	const rules = { atMs, load, whenFull, pick };
	const plan = planAssignment(leadId, lead, roster, choices, (eligible) =>
		chooseAdvisor(eligible, rules),
	);
	if (!plan.assignment) {
		throw new NodeOperationError(this.getNode(), `${plan.problem} [item ${itemIndex}]`, {
			itemIndex,
			description: 'The lead was read and left as it was.',
		});
	}
	const assignment = plan.assignment;
	if (assignment.leftAsItWas) {
		return [{ ...lead, assignment: { ...assignment, ...loadDetails(assignment, roster, load) } }];
	}

	const body: IDataObject = { assigned_to: assignment.advisor };
	if (setStatus) body.status = 'assigned';
	let assigned = false;
	try {
		const patch = { itemIndex, body };
		const { record: updated } = await requestRecordAnswer.call(this, 'PATCH', address, patch);
		assigned = true;
		if (load) load = await recordChange.call(this, itemIndex, lead, updated);
		return [
			{ ...updated, assignment: { ...assignment, ...loadDetails(assignment, roster, load) } },
		];
	} finally {
		if (!assigned && turns === 'rotation') {
			giveBackTurn(turnKey, leadId, assignment.advisor as string, plan.eligible);
		}
	}
}
