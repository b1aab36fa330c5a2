// When an advisor of the roster takes leads and how many: optional columns of a Data Table row, or
// the Shift and Capacity fields of an entered advisor. Working Hours are in the opening-hours
// notation (nodes/shared/openingHours) in the row's Time Zone, else the node's; empty, always on
// shift. Capacity is the most leads in status `assigned` the advisor may hold; empty, no cap.

import type { OpeningHours } from '../../shared/openingHours';
import { checkTimeZone, parseOpeningHours } from '../../shared/openingHours';
import type { Problem } from '../../shared/validation';
import { checkWholeNumber, isGiven } from '../../shared/validation';

export interface AdvisorShift {
	/** Absent: always on shift. */
	schedule?: OpeningHours;
	/** Absent: no cap. */
	capacity?: number;
}

/** Each column: its label in messages and the keys a row may use for it. */
const COLUMNS = {
	hours: { label: 'Working Hours', keys: ['hours', 'workingHours', 'working_hours'] },
	timeZone: { label: 'Time Zone', keys: ['timeZone', 'time_zone'] },
	capacity: { label: 'Capacity', keys: ['capacity'] },
} as const;

/** The first key of `keys` the row gives a value for (blank text counts as none). */
function valueOf(row: Record<string, unknown>, keys: readonly string[]): unknown {
	const given = (value: unknown) =>
		isGiven(value) && !(typeof value === 'string' && value.trim() === '');
	const key = keys.find((name) => given(row[name]));
	return key === undefined ? undefined : row[key];
}

/** A whole number written as text in a table's text column counts as that number. */
function numberOf(value: unknown): unknown {
	if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return value;
	return Number(value);
}

function scheduleOf(
	field: string,
	row: Record<string, unknown>,
	defaultZone: string,
): { schedule?: OpeningHours; problem: Problem } {
	const hours = valueOf(row, COLUMNS.hours.keys);
	const zone = valueOf(row, COLUMNS.timeZone.keys);
	const zoneField = `${field} ${COLUMNS.timeZone.label}`;
	if (zone !== undefined) {
		const problem = checkTimeZone(zoneField, zone);
		if (problem) return { problem };
	}
	if (hours === undefined) return { problem: undefined };
	const { schedule, problem } = parseOpeningHours({
		hours,
		timeZone: zone ?? defaultZone,
		fields: { hours: `${field} ${COLUMNS.hours.label}`, timeZone: zoneField, closedDates: '' },
	});
	return { schedule, problem };
}

/**
 * The shift and capacity of one roster row, or the problem naming `field` (the row) and the
 * column. `defaultZone` is the zone of Working Hours for a row without its own.
 */
export function shiftOfRow(
	field: string,
	row: Record<string, unknown>,
	defaultZone: string,
): { shift: AdvisorShift; problem: Problem } {
	const shift: AdvisorShift = {};
	const { schedule, problem } = scheduleOf(field, row, defaultZone);
	if (problem) return { shift, problem };
	if (schedule) shift.schedule = schedule;
	const capacity = valueOf(row, COLUMNS.capacity.keys);
	if (capacity !== undefined) {
		const value = numberOf(capacity);
		const label = `${field} ${COLUMNS.capacity.label}`;
		const capacityProblem = checkWholeNumber(label, value, 1);
		if (capacityProblem) {
			return { shift, problem: `${capacityProblem}: the most leads in status assigned` };
		}
		shift.capacity = value as number;
	}
	return { shift, problem: undefined };
}
