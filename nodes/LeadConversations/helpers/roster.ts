// The roster of Lead → Assign: advisors' user IDs with a weight and an away flag, entered in the
// node or given by an expression (rows of an n8n Data Table, say). Checked as a whole before any
// request, each problem naming the field and the row.

import type { Problem } from '../../shared/validation';
import { checkBoolean, checkPlainId, firstProblem, isGiven } from '../../shared/validation';

export interface Advisor {
	userId: string;
	weight: number;
	away: boolean;
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
function advisorOfRow(field: string, row: unknown): { advisor?: Advisor; problem: Problem } {
	if (row === null || typeof row !== 'object' || Array.isArray(row)) {
		return { problem: `${field} must be an object with a user ID (got ${describe(row)})` };
	}
	const values = row as Record<string, unknown>;
	const idKey = USER_ID_KEYS.find((key) => isGiven(values[key]));
	if (idKey === undefined) {
		return { problem: `${field} has no User ID (a userId or user_id field)` };
	}
	const weight = isGiven(values.weight) ? values.weight : 1;
	const away = isGiven(values.away) ? values.away : false;
	const problem = firstProblem(
		checkPlainId(`${field} User ID`, values[idKey]),
		checkWeight(`${field} Weight`, weight),
		checkBoolean(`${field} Away`, away),
	);
	if (problem) return { problem };
	const userId = String(values[idKey]).trim();
	return { advisor: { userId, weight: weight as number, away: away as boolean }, problem };
}

/**
 * The roster from a list of rows. `field` is the parameter's label; rows are counted from 1 as the
 * editor and a table view show them. Refused: no rows, a bad row, an ID twice, everyone away.
 */
export function parseRoster(field: string, rows: unknown): { roster: Advisor[]; problem: Problem } {
	if (!Array.isArray(rows)) {
		return { roster: [], problem: `${field} must be a list of advisors (got ${describe(rows)})` };
	}
	if (rows.length === 0) {
		return { roster: [], problem: `${field} is empty: add at least one advisor` };
	}
	const roster: Advisor[] = [];
	const rowOf = new Map<string, number>();
	for (const [index, row] of rows.entries()) {
		const { advisor, problem } = advisorOfRow(`${field} (row ${index + 1})`, row);
		if (problem || !advisor) return { roster: [], problem };
		const earlier = rowOf.get(advisor.userId);
		if (earlier !== undefined) {
			return {
				roster: [],
				problem: `${field} lists ${advisor.userId} twice (rows ${earlier} and ${index + 1}): keep one row per advisor`,
			};
		}
		rowOf.set(advisor.userId, index + 1);
		roster.push(advisor);
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
