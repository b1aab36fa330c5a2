// The roster of Lead → Assign: advisors' user IDs with a weight, an away flag, an optional rule
// (advisorRules.ts) and optional working hours and capacity (advisorShift.ts), entered in the node or given by an expression (rows of an n8n Data Table,
// say). Checked as a whole before any request, each problem naming the field and the row.

import { isRecord } from '../../shared/isRecord';
import type { Problem } from '../../shared/validation';
import { checkBoolean, checkPlainId, firstProblem, isGiven } from '../../shared/validation';
import type { AdvisorRule } from './advisorRules';
import { ruleOfRow } from './advisorRules';
import type { AdvisorShift } from './advisorShift';
import { shiftOfRow } from './advisorShift';

export interface Advisor extends AdvisorShift {
	userId: string;
	weight: number;
	away: boolean;
	/** Absent: the advisor takes leads no one's rule fits. */
	rule?: AdvisorRule;
}

/** The largest weight accepted: enough for any split of a team, small enough to stay exact. */
export const MAX_WEIGHT = 1000;

/** The keys a row may name the advisor's user ID by: the node's own and a table column's. */
const USER_ID_KEYS = ['userId', 'user_id'] as const;

function describe(value: unknown): string {
	return typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
}

function checkWeight(field: string, value: unknown): Problem {
	if (typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_WEIGHT) {
		return undefined;
	}
	return `${field} must be a number greater than 0 and at most ${MAX_WEIGHT} (got ${describe(value)})`;
}

/** One row as an advisor, or the problem of that row. Null weight or away mean "not set". */
function advisorOfRow(
	field: string,
	row: unknown,
	defaultZone: string,
): { advisor?: Advisor; problem: Problem } {
	if (row === null || typeof row !== 'object' || Array.isArray(row)) {
		return { problem: `${field} must be an object with a user ID (got ${describe(row)})` };
	}
	const values = row as Record<string, unknown>;
	const idKey = USER_ID_KEYS.find((key) => isGiven(values[key]));
	if (idKey === undefined) {
		const keys = Object.keys(values).slice(0, 8).join(', ');
		return { problem: `${field} has no User ID (a userId or user_id field); its fields: ${keys}` };
	}
	const weight = isGiven(values.weight) ? values.weight : 1;
	const away = isGiven(values.away) ? values.away : false;
	const problem = firstProblem(
		checkPlainId(`${field} User ID`, values[idKey]),
		checkWeight(`${field} Weight`, weight),
		checkBoolean(`${field} Away`, away),
	);
	if (problem) return { problem };
	const { rule, problem: ruleProblem } = ruleOfRow(field, values);
	if (ruleProblem) return { problem: ruleProblem };
	const { shift, problem: shiftProblem } = shiftOfRow(field, values, defaultZone);
	if (shiftProblem) return { problem: shiftProblem };
	const userId = String(values[idKey]).trim();
	const advisor: Advisor = { userId, weight: weight as number, away: away as boolean, ...shift };
	if (rule) advisor.rule = rule;
	return { advisor, problem: undefined };
}

/**
 * A row as written, or the `json` of an n8n item passed as it comes (`$('Roster').all()`).
 * Undefined for an empty object: the one item a node set to Always Output Data gives for no rows.
 */
function rowOf(entry: unknown): unknown {
	if (!isRecord(entry)) return entry;
	const isItem = isRecord(entry.json) && !USER_ID_KEYS.some((key) => key in entry);
	const row = isItem ? entry.json : entry;
	return Object.keys(row as object).length === 0 ? undefined : row;
}

/**
 * The roster from a list of rows. `field` is the parameter's label; rows are counted from 1 as the
 * editor and a table view show them. Refused: no rows, a bad row, an ID twice, everyone away.
 * `defaultZone` is the time zone of Working Hours for rows without their own.
 */
export function parseRoster(
	field: string,
	rows: unknown,
	defaultZone: string,
): { roster: Advisor[]; problem: Problem } {
	if (!Array.isArray(rows)) {
		return { roster: [], problem: `${field} must be a list of advisors (got ${describe(rows)})` };
	}
	const roster: Advisor[] = [];
	const rowNumbers = new Map<string, number>();
	for (const [index, entry] of rows.entries()) {
		const row = rowOf(entry);
		if (row === undefined) continue;
		const { advisor, problem } = advisorOfRow(`${field} (row ${index + 1})`, row, defaultZone);
		if (problem || !advisor) return { roster: [], problem };
		const earlier = rowNumbers.get(advisor.userId);
		if (earlier !== undefined) {
			return {
				roster: [],
				problem: `${field} lists ${advisor.userId} twice (rows ${earlier} and ${index + 1}): keep one row per advisor`,
			};
		}
		rowNumbers.set(advisor.userId, index + 1);
		roster.push(advisor);
	}
	if (roster.length === 0) {
		return { roster: [], problem: `${field} is empty: add at least one advisor` };
	}
	if (roster.every((advisor) => advisor.away)) {
		return {
			roster: [],
			problem: `${field} has every advisor away, so no one can take the lead`,
		};
	}
	return { roster, problem: undefined };
}

/** Advisors who can take leads, in roster order. */
export function availableAdvisors(roster: Advisor[]): Advisor[] {
	return roster.filter((advisor) => !advisor.away);
}
