// When an advisor of the roster takes leads and how many: optional columns of a Data Table row, or
// the Shift and Capacity fields of an entered advisor. Capacity is the most leads in status
// `assigned` the advisor may hold; empty, no cap.

import type { Problem } from '../../shared/validation';
import { checkWholeNumber, isGiven } from '../../shared/validation';

export interface AdvisorShift {
	capacity?: number;
}

/** Each column: its label in messages and the keys a row may use for it. */
const COLUMNS = {
	capacity: { label: 'Capacity', keys: ['capacity'] },
} as const;

/** The first key of `keys` the row gives a value for (an empty text counts as none). */
function valueOf(row: Record<string, unknown>, keys: readonly string[]): unknown {
	const key = keys.find((name) => isGiven(row[name]) && row[name] !== '');
	return key === undefined ? undefined : row[key];
}

/** A whole number written as text in a table's text column counts as that number. */
function numberOf(value: unknown): unknown {
	if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return value;
	return Number(value);
}

/** The shift and capacity of one roster row, or the problem naming `field` (the row) and column. */
export function shiftOfRow(
	field: string,
	row: Record<string, unknown>,
): { shift: AdvisorShift; problem: Problem } {
	const shift: AdvisorShift = {};
	const capacity = valueOf(row, COLUMNS.capacity.keys);
	if (capacity !== undefined) {
		const value = numberOf(capacity);
		const label = `${field} ${COLUMNS.capacity.label}`;
		const problem = checkWholeNumber(label, value, 1);
		if (problem) return { shift, problem: `${problem}: the most leads in status assigned` };
		shift.capacity = value as number;
	}
	return { shift, problem: undefined };
}
