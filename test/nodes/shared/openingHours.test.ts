import { parseOpeningHours } from '../../../nodes/shared/openingHours';

const fields = { hours: 'Opening Hours', timeZone: 'Time Zone', closedDates: 'Closed Dates' };

function parse(hours: unknown, timeZone: unknown = 'Europe/Madrid', closedDates?: unknown) {
	return parseOpeningHours({ hours, timeZone, closedDates, fields });
}

describe('Opening hours notation', () => {
	it.each([
		['Mon 9-17', undefined, undefined, 'Opening Hours has "Mon 9-17": a range must be HH:MM-HH:MM'],
		[
			'Mnd 09:00-17:00',
			undefined,
			undefined,
			'Opening Hours has "Mnd 09:00-17:00": "Mnd" is not a day',
		],
		['Mon-Frj 09:00-17:00', undefined, undefined, '"Frj" is not a day'],
		['Mon', undefined, undefined, `Opening Hours has "Mon": give the day's ranges`],
		['Mon 24:00-02:00', undefined, undefined, '24:00-02:00 starts at no time of day'],
		['Mon 09:00-24:30', undefined, undefined, '09:00-24:30 ends at no time of day'],
		['Mon 09:00-17:00, soon', undefined, undefined, 'Opening Hours has "Mon 09:00-17:00, soon"'],
		['  ', undefined, undefined, 'Opening Hours is empty'],
		[42, undefined, undefined, 'Opening Hours must be text'],
		['Mon-Sun closed', undefined, undefined, 'Opening Hours is never open'],
		[
			'Mon 09:00-17:00',
			'Europe/Madird',
			undefined,
			'Time Zone "Europe/Madird" is not a known IANA',
		],
		['Mon 09:00-17:00', '', undefined, 'Time Zone is required'],
		[
			'Mon 09:00-17:00',
			undefined,
			'2026-12-25, 25/12/2026',
			'Closed Dates has "25/12/2026": a date must be YYYY-MM-DD',
		],
		['Mon 09:00-17:00', undefined, ['2026-02-30'], 'Closed Dates has "2026-02-30": no such date'],
		['Mon 09:00-17:00', undefined, [20261225], 'Closed Dates has 20261225'],
	])('%j in %j with %j is refused naming the field', (hours, zone, dates, problem) => {
		const result = parse(hours, zone ?? 'Europe/Madrid', dates);
		expect(result.schedule).toBeUndefined();
		expect(result.problem).toContain(problem);
	});

	it('names the field label it is given, such as a roster row', () => {
		const { problem } = parseOpeningHours({
			hours: 'Mon 9-5',
			timeZone: 'UTC',
			fields: { hours: 'Row 3 hours', timeZone: 'Row 3 time_zone', closedDates: 'x' },
		});
		expect(problem).toBe('Row 3 hours has "Mon 9-5": a range must be HH:MM-HH:MM');
	});

	it('reads days in any case, full names, ranges, lists and entries on new lines', () => {
		const { schedule } = parse(
			'mon-FRI 09:00-13:00, 14:00 - 20:00\nSaturday 10:00-12:00; sun closed',
		);
		expect(schedule?.week).toEqual([
			[],
			...Array(5).fill([
				[540, 780],
				[840, 1200],
			]),
			[[600, 720]],
		]);
		expect(parse('Fri-Mon 10:00-11:00').schedule?.week.map((day) => day.length)).toEqual([
			1, 1, 0, 0, 0, 1, 1,
		]);
		expect(parse('Mon,Wed,Fri 9:00-10:00').schedule?.week.map((day) => day.length)).toEqual([
			0, 1, 0, 1, 0, 1, 0,
		]);
	});

	it('adds up the ranges of a day named twice, and closed adds nothing', () => {
		const { schedule } = parse('Mon 09:00-12:00; Mon 11:00-14:00; Mon closed; Mon 14:00-15:00');
		expect(schedule?.week[1]).toEqual([[540, 900]]);
	});

	it('runs a range ending at or before its start past midnight, Saturday into Sunday too', () => {
		const week = parse('Fri 22:00-02:00; Sat 23:00-01:00; Tue 09:00-09:00; Wed 00:00-24:00')
			.schedule?.week;
		expect(week?.[5]).toEqual([[1320, 1440]]);
		expect(week?.[6]).toEqual([
			[0, 120],
			[1380, 1440],
		]);
		expect(week?.[0]).toEqual([[0, 60]]);
		expect(week?.[2]).toEqual([[540, 1440]]);
		expect(week?.[3]).toEqual([[0, 1440]]);
	});

	it('reads closed dates from a list, JSON text or comma-separated text alike', () => {
		const dates = ['2026-12-25', '2026-12-08'];
		for (const given of [
			dates,
			JSON.stringify(dates),
			'2026-12-25, 2026-12-08',
			' 2026-12-25,2026-12-08 ',
		]) {
			expect(parse('Mon 09:00-17:00', 'Europe/Madrid', given).schedule?.closedDates).toEqual([
				'2026-12-08',
				'2026-12-25',
			]);
		}
		expect(parse('Mon 09:00-17:00', 'Europe/Madrid', '').schedule?.closedDates).toEqual([]);
	});

	it('keeps the zone by its canonical IANA name', () => {
		expect(parse('Mon 09:00-17:00', ' utc ').schedule?.timeZone).toBe('UTC');
		expect(parse('Mon 09:00-17:00', 'america/new_york').schedule?.timeZone).toBe(
			'America/New_York',
		);
	});
});
