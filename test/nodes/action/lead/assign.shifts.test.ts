// Lead → Assign's working hours: a lead goes only to an advisor on shift at the moment of the
// assignment on the service's clock (the Date header), in the row's time zone, the node's, or the
// workflow's, across daylight-saving changes; when no one is on shift, to whoever starts first.
import { randomUUID } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { stopDateAt } from '../../clock';
import { apiRequests, jsonOf, operationRunner, ref, useSandbox } from '../helpers';

const ctx = useSandbox({ leads: 12 });
const runOperation = operationRunner(ctx, 'lead', 'assign');

const HOUR_MS = 3_600_000;
const MEXICO = 'America/Mexico_City'; // UTC−6 all year
const NEW_YORK = 'America/New_York'; // UTC−5, UTC−4 from Sunday 2026-03-08 02:00

const newLead = () => ctx.sandbox.control.createChannelLead({ status: 'qualified' }).id;
const stored = (id: string) => ctx.sandbox.control.state().leads.find((lead) => lead.id === id)!;

/** Puts the service's clock at `iso`; n8n's clock stays `aheadMs` behind it. */
function serviceClockAt(iso: string, aheadMs = 0): void {
	stopDateAt(Date.parse(iso) - aheadMs);
	if (aheadMs > 0) ctx.sandbox.control.advanceClock(aheadMs);
	expect(ctx.sandbox.control.clock().now).toBe(new Date(iso).toISOString());
}

afterEach(() => {
	jest.useRealTimers();
});

async function assignAll(
	leadIds: string[],
	rows: IDataObject[],
	extra: IDataObject = {},
	timezone?: string,
) {
	return await runOperation(
		{
			lead: ref('id', '={{ $json.id }}'),
			rosterSource: 'expression',
			rosterRows: '={{ $json.rows }}',
			...extra,
		},
		{
			workflowId: `wf-${randomUUID()}`,
			nodeId: 'assign-node',
			inputItems: leadIds.map((id) => ({ id, rows }) as IDataObject),
			timezone,
		},
	);
}

async function assigned(...args: Parameters<typeof assignAll>) {
	const result = await assignAll(...args);
	expect(result.error).toBeUndefined();
	return jsonOf(result);
}
const advisors = (outputs: IDataObject[]) => outputs.map((lead) => lead.assigned_to);

describe('Working Hours', () => {
	test('off-shift advisors are skipped; empty hours are always on shift', async () => {
		serviceClockAt('2026-03-09T16:00:00Z'); // Monday 10:00 in Mexico City
		const rows = [
			{ user_id: 'user_ana', hours: 'Mon-Fri 09:00-17:00', time_zone: MEXICO },
			{ user_id: 'user_bruno', hours: 'Sat 10:00-14:00', time_zone: MEXICO },
			{ user_id: 'user_carla', hours: '', time_zone: '' },
		];
		const outputs = await assigned([newLead(), newLead(), newLead(), newLead()], rows);
		expect(advisors(outputs)).toEqual(['user_ana', 'user_carla', 'user_ana', 'user_carla']);
		for (const output of outputs) {
			expect(output.assignment).toMatchObject({ reason: 'assigned' });
			expect(output.assignment).not.toHaveProperty('onShiftFrom');
		}
	});

	test('no one on shift: those whose shift starts first take turns, and the output says from when', async () => {
		serviceClockAt('2026-03-10T02:00:00Z'); // Monday 20:00 in Mexico City
		const rows = [
			{ user_id: 'user_ana', hours: 'Mon-Fri 09:00-17:00' },
			{ user_id: 'user_bruno', hours: 'Tue 09:00-12:00' },
			{ user_id: 'user_carla', hours: 'Mon-Fri 10:00-18:00' },
		];
		const ids = [newLead(), newLead()];
		const outputs = await assigned(ids, rows, { options: { timeZone: MEXICO } });
		expect(advisors(outputs)).toEqual(['user_ana', 'user_bruno']);
		expect(stored(ids[1]).assigned_to).toBe('user_bruno');
		for (const output of outputs) {
			expect(output.assignment).toMatchObject({
				onShiftFrom: '2026-03-10T15:00:00.000Z',
				reason: 'assigned (no one who fits is on shift; on shift from 2026-03-10T15:00:00.000Z)',
			});
		}
	});

	test.each([
		// Friday before the change: 09:00 in New York is 14:00 UTC.
		['2026-03-06T13:30:00Z', 'user_night'],
		['2026-03-06T14:30:00Z', 'user_day'],
		// Monday after it: 09:00 is 13:00 UTC.
		['2026-03-09T12:30:00Z', 'user_night'],
		['2026-03-09T13:30:00Z', 'user_day'],
	])(
		'across the daylight-saving change in New York, at %s the lead goes to %s',
		async (at, expected) => {
			serviceClockAt(at);
			const rows = [
				{ user_id: 'user_day', hours: 'Mon-Fri 09:00-17:00' },
				{ user_id: 'user_night', hours: 'Sun-Thu 17:00-09:00' },
			];
			const [output] = await assigned([newLead()], rows, { options: { timeZone: NEW_YORK } });
			expect(output.assigned_to).toBe(expected);
			expect(output.assignment).not.toHaveProperty('onShiftFrom');
		},
	);

	test.each([
		['2026-03-06T03:00:00Z', '2026-03-06T14:00:00.000Z'],
		['2026-03-08T12:00:00Z', '2026-03-09T13:00:00.000Z'],
	])('no one on shift in New York at %s: on shift from %s', async (at, from) => {
		serviceClockAt(at);
		const rows = [{ user_id: 'user_day', hours: 'Mon-Fri 09:00-17:00', time_zone: NEW_YORK }];
		const [output] = await assigned([newLead()], rows);
		expect(output.assignment).toMatchObject({ advisor: 'user_day', onShiftFrom: from });
	});

	test("the service's clock decides, not n8n's", async () => {
		// n8n's clock: Monday 08:00 in Mexico City; the service's: 10:00.
		serviceClockAt('2026-03-09T16:00:00Z', 2 * HOUR_MS);
		const rows = [
			{ user_id: 'user_early', hours: 'Mon 07:00-09:00', time_zone: MEXICO },
			{ user_id: 'user_day', hours: 'Mon 09:30-17:00', time_zone: MEXICO },
		];
		const outputs = await assigned([newLead(), newLead()], rows);
		expect(advisors(outputs)).toEqual(['user_day', 'user_day']);
	});

	test("a row's time zone, else the node's Time Zone, else the workflow's", async () => {
		serviceClockAt('2026-03-09T01:30:00Z'); // Monday 10:30 in Tokyo, Sunday 19:30 in Mexico City
		const rows = [
			// Off shift now; read in New York's time, user_local would start later than this.
			{ user_id: 'user_mexico', hours: 'Mon 00:00-01:00', timeZone: MEXICO },
			{ user_id: 'user_local', hours: 'Mon 09:00-12:00' },
		];
		const inTokyo = await assigned([newLead()], rows, {}, 'Asia/Tokyo');
		expect(advisors(inTokyo)).toEqual(['user_local']);
		const option = await assigned([newLead()], rows, { options: { timeZone: 'Asia/Tokyo' } });
		expect(advisors(option)).toEqual(['user_local']);
	});

	test('Pass On respects shifts: never to the advisor it had, nor to one off shift', async () => {
		serviceClockAt('2026-03-09T16:00:00Z');
		const rows = [
			{ user_id: 'user_ana', hours: 'Mon-Fri 09:00-17:00' },
			{ user_id: 'user_bruno', hours: 'Sat 10:00-14:00' },
			{ user_id: 'user_carla', hours: 'Mon 09:00-11:00' },
		];
		const held = [1, 2, 3, 4].map(
			() =>
				ctx.sandbox.control.createChannelLead({ status: 'assigned', assigned_to: 'user_ana' }).id,
		);
		const outputs = await assigned(held, rows, {
			turns: 'spread',
			options: { passOn: true, timeZone: MEXICO },
		});
		for (const output of outputs) {
			expect(output.assigned_to).toBe('user_carla');
			expect(output.assignment).toMatchObject({ reason: 'passed on', previousAdvisor: 'user_ana' });
		}
	});
});

describe('entered advisors', () => {
	test('Working Hours and Time Zone under Shift and Capacity', async () => {
		serviceClockAt('2026-03-09T16:00:00Z'); // Monday 10:00 in Mexico City
		const shift = (hours: string) => ({ hours, timeZone: MEXICO });
		const advisorsEntered = {
			advisor: [
				{ userId: 'user_ana', shift: shift('Sat 10:00-14:00') },
				{ userId: 'user_bruno', shift: shift('Mon-Fri 09:00-17:00') },
			],
		};
		const ids = [newLead(), newLead()];
		const outputs = await Promise.all(
			ids.map(async (id) => {
				const result = await runOperation(
					{ lead: ref('id', id), advisors: advisorsEntered },
					{ workflowId: `wf-${randomUUID()}`, nodeId: 'assign-node' },
				);
				expect(result.error).toBeUndefined();
				return jsonOf(result)[0];
			}),
		);
		expect(advisors(outputs)).toEqual(['user_bruno', 'user_bruno']);
	});

	test('bad Working Hours of an entered advisor name the row and the field', async () => {
		const result = await runOperation({
			lead: ref('id', newLead()),
			advisors: { advisor: [{ userId: 'user_ana', shift: { hours: 'weekdays' } }] },
		});
		expect(result.error?.message).toMatch(/^Advisors \(row 1\) Working Hours /);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});
});

describe('bad Working Hours and Time Zone', () => {
	test.each([
		[{ hours: 'Mon-Fry 09:00-17:00' }, /^Roster Rows \(row 2\) Working Hours /],
		[{ hours: 'Mon 9-17' }, /^Roster Rows \(row 2\) Working Hours /],
		[{ hours: 'Mon closed' }, /^Roster Rows \(row 2\) Working Hours is never open/],
		[{ hours: 42 }, /^Roster Rows \(row 2\) Working Hours must be text/],
		[
			{ hours: 'Mon 09:00-17:00', time_zone: 'Mars/Olympus' },
			/^Roster Rows \(row 2\) Time Zone "Mars\/Olympus" is not a known IANA time zone/,
		],
		[{ time_zone: 'Europe/Madird' }, /^Roster Rows \(row 2\) Time Zone "Europe\/Madird"/],
	])('%p is refused naming the row and the field, before any request', async (row, message) => {
		const result = await assignAll(
			[newLead()],
			[{ user_id: 'user_ana' }, { user_id: 'user_bruno', ...row }],
		);
		expect(result.error?.message).toMatch(message);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});

	test("the node's Time Zone option is checked too, before any request", async () => {
		const result = await assignAll([newLead()], [{ user_id: 'user_ana' }], {
			options: { timeZone: 'Moon/Base' },
		});
		expect(result.error?.message).toMatch(/^Time Zone "Moon\/Base" is not a known IANA time zone/);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});
});
