import {
	isOpenAt,
	nextOpeningAt,
	openEndOf,
	openMsBetween,
	parseOpeningHours,
	type OpeningHours,
} from '../../../nodes/shared/openingHours';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const at = (text: string) => Date.parse(text);
const iso = (ms: number) => new Date(ms).toISOString();

function schedule(hours: string, closedDates?: unknown, timeZone = 'Europe/Madrid'): OpeningHours {
	const fields = { hours: 'Opening Hours', timeZone: 'Time Zone', closedDates: 'Closed Dates' };
	const result = parseOpeningHours({ hours, timeZone, closedDates, fields });
	if (!result.schedule) throw new Error(result.problem);
	return result.schedule;
}

const showroom = schedule('Mon-Sat 09:00-20:00; Sun closed');

describe('Open time in a week of opening hours', () => {
	it('ends a 15-minute wait from Saturday 19:55 at Monday 09:10 (open till 20:00, again Monday 09:00)', () => {
		const end = openEndOf(showroom, at('2026-11-28T19:55:00+01:00'), 15 * MINUTE);
		expect(iso(end)).toBe(iso(at('2026-11-30T09:10:00+01:00')));
		expect(openMsBetween(showroom, at('2026-11-28T19:55:00+01:00'), end)).toBe(15 * MINUTE);
	});

	it('starts a wait that begins while closed at the opening', () => {
		const saturdayNight = at('2026-11-28T21:50:00+01:00');
		expect(isOpenAt(showroom, saturdayNight)).toBe(false);
		expect(iso(nextOpeningAt(showroom, saturdayNight)!)).toBe('2026-11-30T08:00:00.000Z');
		expect(iso(openEndOf(showroom, saturdayNight, 15 * MINUTE))).toBe('2026-11-30T08:15:00.000Z');
		expect(iso(openEndOf(showroom, saturdayNight, 0))).toBe('2026-11-30T08:00:00.000Z');
	});

	it('opens at the start of a range and closes at its end', () => {
		expect(isOpenAt(showroom, at('2026-11-30T09:00:00+01:00'))).toBe(true);
		expect(isOpenAt(showroom, at('2026-11-30T19:59:59+01:00'))).toBe(true);
		expect(isOpenAt(showroom, at('2026-11-30T20:00:00+01:00'))).toBe(false);
		const open = at('2026-11-30T12:00:00+01:00');
		expect(nextOpeningAt(showroom, open)).toBe(open);
	});

	it('carries a wait across closing time to the next morning, and over a holiday', () => {
		const tuesdayEvening = at('2026-12-01T19:50:00+01:00');
		expect(iso(openEndOf(showroom, tuesdayEvening, 30 * MINUTE))).toBe('2026-12-02T08:20:00.000Z');
		const withHoliday = schedule('Mon-Sat 09:00-20:00', '2026-12-08');
		const mondayEvening = at('2026-12-07T19:50:00+01:00');
		expect(iso(openEndOf(withHoliday, mondayEvening, 30 * MINUTE))).toBe(
			'2026-12-09T08:20:00.000Z',
		);
		expect(isOpenAt(withHoliday, at('2026-12-08T12:00:00+01:00'))).toBe(false);
	});

	it('counts a range past midnight into the next day, closed where that day is a closed date', () => {
		const lateShift = schedule('Fri 22:00-02:00');
		const fridayLate = at('2026-11-27T23:50:00+01:00');
		expect(iso(openEndOf(lateShift, fridayLate, 30 * MINUTE))).toBe('2026-11-27T23:20:00.000Z');
		expect(isOpenAt(lateShift, at('2026-11-28T01:30:00+01:00'))).toBe(true);
		const saturdayClosed = schedule('Fri 22:00-02:00', ['2026-11-28']);
		expect(iso(openEndOf(saturdayClosed, fridayLate, 30 * MINUTE))).toBe(
			'2026-12-04T21:20:00.000Z',
		);
	});

	it('keeps wall-clock hours on the 23-hour day clocks go forward (Madrid, 29 March 2026)', () => {
		const allWeek = schedule('Mon-Sun 09:00-20:00');
		const end = openEndOf(allWeek, at('2026-03-28T19:55:00+01:00'), 15 * MINUTE);
		expect(iso(end)).toBe(iso(at('2026-03-29T09:10:00+02:00')));
		const day = [at('2026-03-29T00:00:00+01:00'), at('2026-03-30T00:00:00+02:00')] as const;
		expect(openMsBetween(schedule('Sun 00:00-24:00'), ...day)).toBe(23 * HOUR);
		expect(openMsBetween(schedule('Sun 01:00-04:00'), ...day)).toBe(2 * HOUR);
		// 02:30 is never shown that night: the range opens at the first instant after the gap.
		expect(iso(nextOpeningAt(schedule('Sun 02:30-05:00'), day[0])!)).toBe(
			'2026-03-29T01:00:00.000Z',
		);
	});

	it('keeps wall-clock hours on the 25-hour day clocks go back (Madrid, 25 October 2026)', () => {
		const allWeek = schedule('Mon-Sun 09:00-20:00');
		const end = openEndOf(allWeek, at('2026-10-24T19:55:00+02:00'), 15 * MINUTE);
		expect(iso(end)).toBe(iso(at('2026-10-25T09:10:00+01:00')));
		const day = [at('2026-10-25T00:00:00+02:00'), at('2026-10-26T00:00:00+01:00')] as const;
		expect(openMsBetween(schedule('Sun 00:00-24:00'), ...day)).toBe(25 * HOUR);
		expect(openMsBetween(schedule('Sun 01:00-04:00'), ...day)).toBe(4 * HOUR);
		// A range inside the repeated hour is its first pass only.
		const insideRepeat = schedule('Sun 02:15-02:45');
		expect(openMsBetween(insideRepeat, ...day)).toBe(30 * MINUTE);
		expect(iso(nextOpeningAt(insideRepeat, day[0])!)).toBe('2026-10-25T00:15:00.000Z');
	});

	it('counts in the schedule zone, not the machine zone (New York)', () => {
		const newYork = schedule('Mon-Fri 09:00-17:00', undefined, 'America/New_York');
		const end = openEndOf(newYork, at('2026-11-27T16:50:00-05:00'), 20 * MINUTE);
		expect(iso(end)).toBe(iso(at('2026-11-30T09:10:00-05:00')));
	});

	it('treats a schedule that opens in no day of the next 400 as never open, without spinning', () => {
		const mondays = Array.from({ length: 60 }, (_, week) =>
			new Date(Date.UTC(2026, 10, 30 + week * 7)).toISOString().slice(0, 10),
		);
		const everyMondayClosed = schedule('Mon 09:00-10:00', mondays);
		const from = at('2026-11-28T12:00:00Z');
		expect(nextOpeningAt(everyMondayClosed, from)).toBeUndefined();
		expect(openEndOf(everyMondayClosed, from, MINUTE)).toBe(Number.POSITIVE_INFINITY);
		expect(isOpenAt(everyMondayClosed, at('2026-11-30T09:30:00+01:00'))).toBe(false);
	});
});
