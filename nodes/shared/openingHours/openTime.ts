// Open time between instants. A schedule's open periods are found one local date at a time: each
// day's open minutes become instants through the zone's wall clock, so 09:00 stays 09:00 across
// daylight-saving changes. A range is all the real time between its two ends: one that spans the
// hour repeated when clocks go back is open for both passes of it (a 25-hour day that is open all
// day is open 25 hours), and one that spans the skipped hour is open 1 hour less.

import type { OpeningHours } from './parse';
import { DAY_MS, dateTextOf, instantOfWall, localDayOf, weekdayOf } from './zone';

/** How far ahead anything is looked for: nothing open within it counts as never open. */
export const HORIZON_DAYS = 400;

interface Period {
	startMs: number;
	endMs: number;
}

function periodsOn(schedule: OpeningHours, day: number): Period[] {
	if (schedule.closedDates.includes(dateTextOf(day))) return [];
	return schedule.week[weekdayOf(day)]
		.map(([start, end]) => ({
			startMs: instantOfWall(schedule.timeZone, day, start),
			endMs: instantOfWall(schedule.timeZone, day, end),
		}))
		.filter((period) => period.endMs > period.startMs);
}

/** Open periods from the local date of `fromMs` on, one day at a time, for at most `days` days. */
function* periodsFrom(schedule: OpeningHours, fromMs: number, days: number): Generator<Period> {
	const first = localDayOf(schedule.timeZone, fromMs);
	for (let day = first; day <= first + days; day++) yield* periodsOn(schedule, day);
}

export function isOpenAt(schedule: OpeningHours, atMs: number): boolean {
	const day = localDayOf(schedule.timeZone, atMs);
	return periodsOn(schedule, day).some((period) => period.startMs <= atMs && atMs < period.endMs);
}

/** atMs itself when open, else the next opening; undefined when nothing opens within 400 days. */
export function nextOpeningAt(schedule: OpeningHours, atMs: number): number | undefined {
	for (const period of periodsFrom(schedule, atMs, HORIZON_DAYS)) {
		if (period.endMs > atMs) return Math.max(period.startMs, atMs);
	}
	return undefined;
}

/** Milliseconds of open time in [fromMs, toMs). */
export function openMsBetween(schedule: OpeningHours, fromMs: number, toMs: number): number {
	if (!(toMs > fromMs)) return 0;
	const days = Math.ceil((toMs - fromMs) / DAY_MS) + 1;
	let open = 0;
	for (const period of periodsFrom(schedule, fromMs, days)) {
		if (period.startMs >= toMs) break;
		open += Math.max(0, Math.min(period.endMs, toMs) - Math.max(period.startMs, fromMs));
	}
	return open;
}

/**
 * The instant by which `openMs` of open time has passed since `fromMs`; a start while closed
 * begins at the next opening (so a wait of 0 ends at it). Infinity when that takes more than
 * 400 days of calendar: the schedule counts as never open.
 */
export function openEndOf(schedule: OpeningHours, fromMs: number, openMs: number): number {
	let left = Math.max(0, openMs);
	for (const period of periodsFrom(schedule, fromMs, HORIZON_DAYS)) {
		const startMs = Math.max(period.startMs, fromMs);
		if (period.endMs <= startMs) continue;
		if (left === 0) return startMs;
		const span = period.endMs - startMs;
		if (span >= left) return startMs + left;
		left -= span;
	}
	return Number.POSITIVE_INFINITY;
}
