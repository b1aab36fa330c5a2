// Wall-clock arithmetic in an IANA time zone with nothing but Intl: the wall time of an instant,
// and the instant of a wall time on a local date. A local date is a day number (days since
// 1970-01-01), so that date arithmetic never meets a time zone.

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
	let found = formatters.get(timeZone);
	if (!found) {
		found = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		formatters.set(timeZone, found);
	}
	return found;
}

/** The zone's canonical name, or undefined when Intl does not know the zone. */
export function canonicalTimeZone(timeZone: string): string | undefined {
	try {
		return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
	} catch {
		return undefined;
	}
}

/** The wall time shown in the zone at an instant, written as the UTC instant of that wall time. */
export function wallMsAt(timeZone: string, atMs: number): number {
	const wall: Record<string, number> = {};
	for (const part of formatter(timeZone).formatToParts(atMs)) wall[part.type] = Number(part.value);
	const subSecond = ((atMs % 1000) + 1000) % 1000;
	return (
		Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) + subSecond
	);
}

function offsetAt(timeZone: string, atMs: number): number {
	return wallMsAt(timeZone, atMs) - atMs;
}

export function localDayOf(timeZone: string, atMs: number): number {
	return Math.floor(wallMsAt(timeZone, atMs) / DAY_MS);
}

/** 0 for Sunday to 6 for Saturday (1970-01-01 was a Thursday). */
export function weekdayOf(day: number): number {
	return (((day + 4) % 7) + 7) % 7;
}

/** YYYY-MM-DD of a local date. */
export function dateTextOf(day: number): string {
	return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The instant at which the zone's clocks show `minute` minutes after midnight of a local date
 * (1440 = midnight at the end of it). A wall time shown twice (the hour repeated when clocks go
 * back) is its first showing; a wall time never shown (skipped when clocks go forward) moves on
 * to the first instant after the gap. Assumes at most one offset change within a day either side,
 * which holds for every zone in the tz database.
 */
export function instantOfWall(timeZone: string, day: number, minute: number): number {
	const wall = day * DAY_MS + minute * MINUTE_MS;
	const offsets = [offsetAt(timeZone, wall - DAY_MS), offsetAt(timeZone, wall + DAY_MS)];
	const shown = offsets
		.map((offset) => wall - offset)
		.filter((candidate) => wallMsAt(timeZone, candidate) === wall);
	if (shown.length > 0) return Math.min(...shown);
	// In a gap: the first instant whose wall time is at or after the one asked for.
	let low = Math.min(wall - offsets[0], wall - offsets[1]);
	let high = Math.max(wall - offsets[0], wall - offsets[1]);
	while (high - low > 1) {
		const middle = Math.floor((low + high) / 2);
		if (wallMsAt(timeZone, middle) >= wall) high = middle;
		else low = middle;
	}
	return high;
}
