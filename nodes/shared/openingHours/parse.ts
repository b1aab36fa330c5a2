// The opening-hours notation, read into a week of open minutes per weekday:
//   Mon-Fri 09:00-13:00, 14:00-20:00; Sat 09:00-14:00; Sun closed
// Entries are separated by ";" or new lines. An entry is a day spec without spaces (Mon, Monday,
// Mon-Fri, Fri-Mon, Mon,Wed,Fri) then "closed" or ranges HH:MM-HH:MM separated by commas. An end
// at or before its start runs past midnight into the next day; 24:00 ends at midnight. Days not
// mentioned are closed; a day named twice gets the union of its ranges ("closed" adds nothing).

import { canonicalTimeZone } from './zone';

/** Open minutes of a local day, [start, end) with 0 <= start < end <= 1440, sorted, disjoint. */
export type OpenMinutes = Array<[number, number]>;

export interface OpeningHours {
	timeZone: string;
	/** Index 0 is Sunday, 6 is Saturday. */
	week: OpenMinutes[];
	/** Local dates (YYYY-MM-DD in the zone) that are closed all day. */
	closedDates: string[];
}

export interface OpeningHoursInput {
	hours: unknown;
	timeZone: unknown;
	closedDates?: unknown;
	fields: { hours: string; timeZone: string; closedDates: string };
}

const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const EXAMPLE = 'like Mon-Fri 09:00-20:00; Sat 09:00-14:00';
const RANGE = /^(\d{1,2}):(\d{2})-(\d{1,2}):(\d{2})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayIndex(name: string): number | undefined {
	const lower = name.toLowerCase();
	const found = DAY_NAMES.findIndex((day) => lower === day || lower === day.slice(0, 3));
	return found === -1 ? undefined : found;
}

/** The weekdays of a day spec, or the token that is no day. */
function daysOf(spec: string): number[] | string {
	const days: number[] = [];
	for (const item of spec.split(',')) {
		const [from, to, ...rest] = item.split('-');
		const first = dayIndex(from);
		if (first === undefined || rest.length > 0) return item === '' ? spec : item;
		const last = to === undefined ? first : dayIndex(to);
		if (last === undefined) return to === '' ? spec : to;
		for (let day = first; ; day = (day + 1) % 7) {
			days.push(day);
			if (day === last) break;
		}
	}
	return days;
}

/** Minutes of a range, the end past the start (beyond 1440 when it runs past midnight). */
function rangeOf(text: string): [number, number] | string {
	const match = RANGE.exec(text);
	if (!match) return 'a range must be HH:MM-HH:MM';
	const [startHour, startMinute, endHour, endMinute] = match.slice(1).map(Number);
	const start = startHour * 60 + startMinute;
	let end = endHour * 60 + endMinute;
	if (startHour > 23 || startMinute > 59)
		return `${text} starts at no time of day (00:00 to 23:59)`;
	if (endMinute > 59 || end > 1440) return `${text} ends at no time of day (00:00 to 24:00)`;
	if (end <= start) end += 1440;
	return [start, end];
}

function merged(minutes: OpenMinutes): OpenMinutes {
	const sorted = [...minutes].sort((a, b) => a[0] - b[0]);
	const result: OpenMinutes = [];
	for (const [start, end] of sorted) {
		const last = result[result.length - 1];
		if (last && start <= last[1]) last[1] = Math.max(last[1], end);
		else result.push([start, end]);
	}
	return result;
}

function parseWeek(text: string, field: string): OpenMinutes[] | string {
	const week: OpenMinutes[] = DAY_NAMES.map(() => []);
	const entries = text
		.split(/[;\n]/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
	for (const entry of entries) {
		const [spec, ...rest] = entry.split(/\s+/);
		const ranges = rest.join('');
		const days = daysOf(spec);
		const says = `${field} has "${entry}"`;
		if (typeof days === 'string') {
			return `${says}: "${days}" is not a day (use Mon, Tue, Wed, Thu, Fri, Sat, Sun)`;
		}
		if (ranges === '') return `${says}: give the day's ranges like 09:00-20:00, or closed`;
		if (ranges.toLowerCase() === 'closed') continue;
		for (const rangeText of ranges.split(',')) {
			const range = rangeOf(rangeText);
			if (typeof range === 'string') return `${says}: ${range}`;
			for (const day of days) {
				week[day].push([range[0], Math.min(range[1], 1440)]);
				if (range[1] > 1440) week[(day + 1) % 7].push([0, range[1] - 1440]);
			}
		}
	}
	return week.map(merged);
}

function dateList(value: unknown): unknown[] {
	if (Array.isArray(value)) return value;
	if (typeof value !== 'string') return [value];
	const text = value.trim();
	if (text.startsWith('[')) {
		try {
			const list: unknown = JSON.parse(text);
			if (Array.isArray(list)) return list;
		} catch {
			// Not JSON: read as a list of dates below, which names what it could not read.
		}
	}
	return text.split(/[\s,;]+/).filter((item) => item !== '');
}

function parseClosedDates(value: unknown, field: string): string[] | string {
	if (value === undefined || value === null || value === '') return [];
	const dates: string[] = [];
	for (const item of dateList(value)) {
		const match = typeof item === 'string' ? DATE.exec(item.trim()) : null;
		const shown = typeof item === 'string' ? `"${item}"` : JSON.stringify(item);
		if (!match) return `${field} has ${shown}: a date must be YYYY-MM-DD`;
		const [year, month, day] = match.slice(1).map(Number);
		const date = new Date(Date.UTC(year, month - 1, day));
		if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
			return `${field} has ${shown}: no such date`;
		}
		dates.push(match[0]);
	}
	return [...new Set(dates)].sort();
}

/** A sentence naming the field when the zone is not a known IANA time zone, else undefined. */
export function checkTimeZone(field: string, zone: unknown): string | undefined {
	if (typeof zone !== 'string' || zone.trim() === '') {
		return `${field} is required: an IANA time zone like Europe/Madrid`;
	}
	if (canonicalTimeZone(zone.trim()) === undefined) {
		return `${field} "${zone}" is not a known IANA time zone (like Europe/Madrid or America/New_York)`;
	}
	return undefined;
}

export function parseOpeningHours(input: OpeningHoursInput): {
	schedule?: OpeningHours;
	problem?: string;
} {
	const { fields } = input;
	if (typeof input.hours !== 'string' || input.hours.trim() === '') {
		const got = typeof input.hours === 'string' ? 'is empty' : 'must be text';
		return { problem: `${fields.hours} ${got}: give days and hours ${EXAMPLE}` };
	}
	const week = parseWeek(input.hours, fields.hours);
	if (typeof week === 'string') return { problem: week };
	if (week.every((day) => day.length === 0)) {
		return { problem: `${fields.hours} is never open: give at least one day hours, ${EXAMPLE}` };
	}
	const zoneProblem = checkTimeZone(fields.timeZone, input.timeZone);
	if (zoneProblem) return { problem: zoneProblem };
	const closedDates = parseClosedDates(input.closedDates, fields.closedDates);
	if (typeof closedDates === 'string') return { problem: closedDates };
	const timeZone = canonicalTimeZone(String(input.timeZone).trim()) as string;
	return { schedule: { timeZone, week, closedDates } };
}
