// Assigned Lead Not Contacted counting only in opening hours, through n8n's engine against the
// sandbox. The service's clock is set to wall times in Europe/Madrid; what is expected is read
// back through Intl, independently of the node's own arithmetic.

import { getGlobalState } from 'n8n-workflow';

import { SandboxClock } from '../../../sandbox/clock';
import { useSandbox } from '../../support/useSandbox';
import { idsOf, pollTrigger } from './helpers';
import {
	ADVISOR_A,
	MINUTE,
	NOT_CONTACTED,
	assign,
	leadWithOpenConversation,
} from './notContactedHelpers';

const ctx = useSandbox();
const ZONE = 'Europe/Madrid';
const HOUR = 60 * MINUTE;
const SHOWROOM = { countWait: 'openingHours', openingHours: 'Mon-Sat 09:00-20:00', timeZone: ZONE };

const wallText = new Intl.DateTimeFormat('en-US', {
	timeZone: ZONE,
	weekday: 'short',
	hour: '2-digit',
	minute: '2-digit',
	hourCycle: 'h23',
});
/** "Sat 19:55": the weekday and wall time in Madrid. */
const wallOf = (ms: number) => wallText.format(ms).replace(',', '');
const offsetText = new Intl.DateTimeFormat('en-US', {
	timeZone: ZONE,
	timeZoneName: 'shortOffset',
});
/** "GMT+1" or "GMT+2". */
const offsetOf = (ms: number) =>
	offsetText.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value;
const serviceNow = () => Date.parse(ctx.sandbox.control.clock().now);

/** The next instant after `fromMs` shown in Madrid as `wall` ("Sat 19:55"), within 8 days. */
function nextWall(wall: string, fromMs = serviceNow()): number {
	const first = Math.ceil(fromMs / MINUTE) * MINUTE + MINUTE;
	for (let at = first; at < first + 8 * 24 * HOUR; at += MINUTE) if (wallOf(at) === wall) return at;
	throw new Error(`No ${wall} ahead`);
}

/** The next instant Madrid's clocks change, from `fromOffset` to another. */
function nextClockChange(fromOffset: string): number {
	const start = Math.ceil(serviceNow() / HOUR) * HOUR;
	for (let at = start; at < start + 370 * 24 * HOUR; at += HOUR) {
		if (offsetOf(at - HOUR) === fromOffset && offsetOf(at) !== fromOffset) return at;
	}
	throw new Error('No clock change ahead');
}

const moveServiceTo = (ms: number) =>
	ctx.sandbox.control.advanceClock(Math.max(0, ms - serviceNow()));

/** A lead assigned at `wall` to a trigger already running, noted by one poll. */
async function assignedAt(trigger: ReturnType<typeof pollTrigger>, wall: string, skip = 0) {
	moveServiceTo(nextWall(wall));
	const { lead } = leadWithOpenConversation(ctx.sandbox, skip);
	const assigned = await assign(ctx.sandbox, lead.id, ADVISOR_A);
	expect((await trigger.poll()).items).toBeNull();
	return { id: lead.id, atMs: Date.parse(assigned.updated_at) };
}

/** Polls at each wall time in turn; the IDs announced at each. */
async function pollAt(trigger: ReturnType<typeof pollTrigger>, ...walls: string[]) {
	const announced: unknown[][] = [];
	for (const wall of walls) {
		moveServiceTo(nextWall(wall));
		announced.push(idsOf((await trigger.poll()).items));
	}
	return announced;
}

async function startedTrigger(parameters: object) {
	const trigger = pollTrigger(ctx.sandbox, { ...NOT_CONTACTED, ...parameters });
	expect((await trigger.poll()).error).toBeUndefined();
	return trigger;
}

describe('Assigned Lead Not Contacted, only in opening hours', () => {
	test('15 minutes from Saturday 19:55 end Monday 09:10; a lead assigned at 21:50 waits from the opening', async () => {
		const trigger = await startedTrigger(SHOWROOM);
		const early = await assignedAt(trigger, 'Sat 19:55');
		const late = await assignedAt(trigger, 'Sat 21:50', 1);
		expect(await pollAt(trigger, 'Sat 22:05', 'Sun 12:00', 'Mon 09:09')).toEqual([[], [], []]);
		moveServiceTo(nextWall('Mon 09:11'));
		const { items } = await trigger.poll();
		expect(idsOf(items)).toEqual([early.id]);
		expect(wallOf(Date.parse(String(items![0].wait_ended_at)))).toBe('Mon 09:10');
		expect(items![0]).toMatchObject({
			open_minutes: 15,
			waiting_since: new Date(early.atMs).toISOString(),
		});
		expect(await pollAt(trigger, 'Mon 09:14', 'Mon 09:16')).toEqual([[], [late.id]]);
	});

	test('a wait across closing time on a weekday goes on the next morning', async () => {
		const trigger = await startedTrigger(SHOWROOM);
		const lead = await assignedAt(trigger, 'Tue 19:50');
		expect(await pollAt(trigger, 'Tue 20:30', 'Wed 09:04', 'Wed 09:06')).toEqual([
			[],
			[],
			[lead.id],
		]);
	});

	test('a closed date from an expression skips the holiday, hours from an expression too', async () => {
		moveServiceTo(nextWall('Sat 19:00'));
		const monday = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(
			nextWall('Mon 12:00'),
		);
		const trigger = await startedTrigger({
			...SHOWROOM,
			openingHours: "={{ 'Mon-Sat' + ' 09:00-20:00' }}",
			closedDates: `={{ ['${monday}'] }}`,
		});
		const lead = await assignedAt(trigger, 'Sat 19:55');
		expect(await pollAt(trigger, 'Mon 09:11', 'Mon 19:00', 'Tue 09:09', 'Tue 09:11')).toEqual([
			[],
			[],
			[],
			[lead.id],
		]);
	});

	test('a range past midnight counts on into the next day', async () => {
		const trigger = await startedTrigger({ ...SHOWROOM, openingHours: 'Fri 22:00-02:00' });
		const lead = await assignedAt(trigger, 'Fri 23:55');
		const [, [announced]] = await pollAt(trigger, 'Sat 00:09', 'Sat 00:11');
		expect(announced).toBe(lead.id);
	});

	test.each([
		['forward (a 23-hour night)', '+1', 12 * HOUR + 15 * MINUTE],
		['back (a 25-hour night)', '+2', 14 * HOUR + 15 * MINUTE],
	])('clocks going %s: still 09:10 on the wall', async (_, offset, realWait) => {
		const change = nextClockChange(`GMT${offset}`);
		moveServiceTo(change - 30 * HOUR);
		const trigger = await startedTrigger({ ...SHOWROOM, openingHours: 'Mon-Sun 09:00-20:00' });
		const lead = await assignedAt(trigger, 'Sat 19:55');
		expect(await pollAt(trigger, 'Sun 09:09')).toEqual([[]]);
		moveServiceTo(nextWall('Sun 09:11'));
		const { items } = await trigger.poll();
		expect(idsOf(items)).toEqual([lead.id]);
		expect(Date.parse(String(items![0].wait_ended_at)) - lead.atMs).toBe(realWait);
	});

	describe.each([
		['12 hours ahead of', 12 * HOUR],
		['12 hours behind', -12 * HOUR],
	])("the service's clock %s n8n's: the service's hours count", (_, serviceAhead) => {
		const real = SandboxClock.prototype.now;
		afterEach(() => {
			jest.restoreAllMocks();
			jest.useRealTimers();
		});

		test("closed at 21:50 on its clock while open on n8n's: waits for its morning", async () => {
			const start = nextWall('Sat 21:50');
			jest.useFakeTimers({
				doNotFake: [
					'nextTick',
					'setImmediate',
					'setTimeout',
					'setInterval',
					'clearTimeout',
					'clearInterval',
					'clearImmediate',
					'queueMicrotask',
					'hrtime',
					'performance',
				],
				now: start - serviceAhead,
			});
			jest.spyOn(SandboxClock.prototype, 'now').mockImplementation(function (this: SandboxClock) {
				return real.call(this) + serviceAhead;
			});
			const trigger = await startedTrigger({ ...SHOWROOM, openingHours: 'Mon-Sun 09:00-20:00' });
			const lead = await assignedAt(trigger, 'Sat 21:50');
			expect(wallOf(Date.now())).toBe(serviceAhead > 0 ? 'Sat 09:50' : 'Sun 09:50');
			expect(await pollAt(trigger, 'Sat 22:10', 'Sun 09:14', 'Sun 09:16')).toEqual([
				[],
				[],
				[lead.id],
			]);
		});
	});

	test.each([
		[{ openingHours: 'Mon-Sun closed' }, 'Opening Hours is never open'],
		[{ openingHours: 'Mon 9-17' }, 'Opening Hours has "Mon 9-17": a range must be HH:MM-HH:MM'],
		[{ openingHours: '' }, 'Opening Hours is empty'],
		[{ timeZone: 'Europe/Madird' }, 'Time Zone "Europe/Madird" is not a known IANA time zone'],
		[{ closedDates: '2026-12-25, 2026-13-01' }, 'Closed Dates has "2026-13-01": no such date'],
	])('%j: refused naming the field, no request sent', async (bad, message) => {
		const trigger = pollTrigger(ctx.sandbox, { ...NOT_CONTACTED, ...SHOWROOM, ...bad });
		const scheduled = await trigger.poll();
		const manual = await trigger.fetchTestEvent();
		for (const { error } of [scheduled, manual]) expect(error?.message).toContain(message);
		expect(ctx.sandbox.control.requests()).toEqual([]);
	});

	test.each([
		['Around the Clock ignores the hours', { countWait: 'aroundTheClock' }],
		// The engine's workflows keep n8n's default zone, New York: open at 15:50 there.
		["an empty Time Zone is the workflow's", { timeZone: '' }],
	])('assigned at 21:50 in Madrid: %s', async (_, parameters) => {
		expect(getGlobalState().defaultTimezone).toBe('America/New_York');
		const trigger = await startedTrigger({ ...SHOWROOM, ...parameters });
		const lead = await assignedAt(trigger, 'Sat 21:50');
		expect(await pollAt(trigger, 'Sat 22:04', 'Sat 22:06')).toEqual([[], [lead.id]]);
	});
});
