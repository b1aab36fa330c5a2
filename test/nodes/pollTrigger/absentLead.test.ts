// A lead missing from a read of `assigned` keeps who let it wait for 3 reads and 1 hour, so the
// hand-off never goes back to an advisor who missed it; after that it is forgotten.

import type { IDataObject } from 'n8n-workflow';

import {
	ABSENT_MS,
	ABSENT_READS,
	keepAbsent,
} from '../../../nodes/LeadConversationsPollTrigger/absentLeads';
import { noteAssigned } from '../../../nodes/LeadConversationsPollTrigger/notContacted';
import type { NotContactedPosition } from '../../../nodes/LeadConversationsPollTrigger/position';
import { useSandbox } from '../../support/useSandbox';
import { describeEachKeeping, idsOf } from './helpers';
import {
	ADVISOR_A,
	ADVISOR_B,
	MINUTE,
	NOT_CONTACTED,
	assign,
	leadWithOpenConversation,
	waitsOf,
} from './notContactedHelpers';

const T = Date.parse('2026-03-01T10:00:00.000Z');
const WAIT = 15 * MINUTE;
const lead = (id: string, advisor: string, ms: number) => ({
	id,
	assigned_to: advisor,
	updated_at: new Date(ms).toISOString(),
});
const read = (stored: NotContactedPosition, leads: IDataObject[], nowMs: number) =>
	keepAbsent(stored, noteAssigned(stored, leads, { waitMs: WAIT }), nowMs);

describe('the bound', () => {
	const missedByA: NotContactedPosition = { waits: { a: ['u2', T, 0, 'u1'] } };

	test(`kept while missing from fewer than ${ABSENT_READS} reads or for less than an hour`, () => {
		let position = read(missedByA, [], T + MINUTE);
		expect(position.absent).toEqual({ a: [T + MINUTE, 1] });
		position = read(position, [], T + 2 * MINUTE);
		position = read(position, [], T + 3 * MINUTE);
		expect(position.waits.a).toEqual(['u2', T, 0, 'u1']);
		expect(position.absent).toEqual({ a: [T + MINUTE, 3] });
		position = read(position, [], T + MINUTE + ABSENT_MS);
		expect(position).toEqual({ waits: {} });
	});

	test('an hour alone is not enough: daily polls keep it for 3 reads', () => {
		let position = read(missedByA, [], T);
		position = read(position, [], T + 24 * 60 * MINUTE);
		expect(position.waits.a).toBeDefined();
		position = read(position, [], T + 48 * 60 * MINUTE);
		expect(position.waits.a).toBeUndefined();
	});

	test('back with the same advisor: the wait goes on; back with a misser: never announced again', () => {
		const away = read(missedByA, [], T + MINUTE);
		expect(read(away, [lead('a', 'u2', T + 2 * MINUTE)], T + 2 * MINUTE)).toEqual(missedByA);
		const toMisser = read(away, [lead('a', 'u1', T + 2 * MINUTE)], T + 2 * MINUTE);
		expect(toMisser.waits.a).toEqual(['u1', T + 2 * MINUTE, 1, 'u1']);
		expect(toMisser.absent).toBeUndefined();
	});

	test('an absent lead is never due: it has no fields to announce', async () => {
		const { dueLeads } = await import('../../../nodes/LeadConversationsPollTrigger/notContacted');
		const away = read(missedByA, [], T + MINUTE);
		expect(dueLeads(away, T + 60 * MINUTE, { waitMs: WAIT })).toEqual([]);
	});

	test('its size: the wait as before, plus the ID and 20 bytes while absent', () => {
		const id = 'lead_100000001113b031';
		const present = read({ waits: { [id]: ['user_0000000001', T, 0] } }, [], T);
		const bytes = Buffer.byteLength(JSON.stringify(present.absent));
		// {"lead_…":[1772359200000,1]}: the ID, a time and a count.
		expect(bytes - 2).toBe(JSON.stringify(id).length + 18);
		console.log(`An absent lead adds ${bytes - 1} bytes to the stored position`);
	});
});

const ctx = useSandbox();
const advance = (ms: number) => ctx.sandbox.control.advanceClock(ms);

describeEachKeeping(ctx, (pollTrigger) => {
	test('missing from one read, then back: its history kept, the hand-off never back', async () => {
		const trigger = pollTrigger(NOT_CONTACTED);
		await trigger.poll();
		const { lead: found } = leadWithOpenConversation(ctx.sandbox);
		await assign(ctx.sandbox, found.id, ADVISOR_A);
		await trigger.poll();
		advance(16 * MINUTE);
		expect((await trigger.poll()).items![0]).toMatchObject({ missed_by: [ADVISOR_A] });
		// Passed on to B; the lead then drops out of one read of assigned, and comes back.
		const handedOn = await assign(ctx.sandbox, found.id, ADVISOR_B);
		await trigger.poll();
		await assign(ctx.sandbox, found.id, ADVISOR_B, 'qualified');
		await trigger.poll();
		const kept = [ADVISOR_B, Date.parse(handedOn.updated_at), 0, ADVISOR_A];
		expect(waitsOf(trigger)[found.id]).toEqual(kept);
		await assign(ctx.sandbox, found.id, ADVISOR_B);
		await trigger.poll();
		expect(waitsOf(trigger)[found.id]).toEqual(kept);
		// B is silent: announced with A still named, so a Pass On never sends it back to A.
		advance(16 * MINUTE);
		const { items } = await trigger.poll();
		expect(idsOf(items)).toEqual([found.id]);
		expect(items![0]).toMatchObject({ missed_by: [ADVISOR_A, ADVISOR_B], misses: 2 });
	});
});
