// The rules of Assigned Lead Not Contacted, without HTTP: the wait, the waits kept per lead, when
// a wait has ended (on the service's time handed in, whatever n8n's clock says), what is contact.

import { serviceNowOf } from '../../../nodes/LeadConversationsPollTrigger/assignedReads';
import {
	dueLeads,
	noteAssigned,
	waitMsOf,
} from '../../../nodes/LeadConversationsPollTrigger/notContacted';
import type { NotContactedPosition } from '../../../nodes/LeadConversationsPollTrigger/position';

const T = Date.parse('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const lead = (id: string, advisor: string | null, updatedMs: number) => ({
	id,
	assigned_to: advisor,
	updated_at: at(updatedMs),
});
const MIN = 60_000;
const WAIT = 15 * MIN;
const AROUND_THE_CLOCK = { waitMs: WAIT };

describe('the wait', () => {
	test.each([
		[1, 'minutes', MIN],
		[15, 'minutes', 15 * MIN],
		[2, 'hours', 120 * MIN],
		[30, 'days', 30 * 24 * 60 * MIN],
		[1.5, 'hours', 90 * MIN],
	])('%s %s is %s ms', (amount, unit, ms) => {
		expect(waitMsOf(amount, unit)).toBe(ms);
	});

	test.each([
		[0.99, 'minutes'],
		[-5, 'minutes'],
		[30.01, 'days'],
		['15', 'minutes'],
		[Number.NaN, 'hours'],
	])('%s %s is refused, naming Wait Amount', (amount, unit) => {
		expect(waitMsOf(amount, unit)).toMatch(/^Wait Amount/);
	});

	test('an unknown unit is refused, naming Wait Unit', () => {
		expect(waitMsOf(1, 'weeks')).toMatch(/^Wait Unit/);
	});
});

describe('the waits kept', () => {
	test('activation notes every assigned lead as done; leads without an advisor are not kept', () => {
		const position = noteAssigned(
			undefined,
			[lead('a', 'u1', T), lead('b', null, T)],
			AROUND_THE_CLOCK,
		);
		expect(position).toEqual({ waits: { a: ['u1', T, 1] } });
	});

	test('a lead seen for the first time waits from its updated_at; the same advisor keeps the wait', () => {
		const first = noteAssigned({ waits: {} }, [lead('a', 'u1', T)], AROUND_THE_CLOCK);
		expect(first.waits.a).toEqual(['u1', T, 0]);
		const later = noteAssigned(first, [lead('a', 'u1', T + 5 * MIN)], AROUND_THE_CLOCK);
		expect(later.waits.a).toEqual(['u1', T, 0]);
	});

	test('a new advisor starts a new wait; an announced advisor joins missed_by, one who made contact does not', () => {
		const missed = noteAssigned(
			{ waits: { a: ['u1', T, 2], b: ['u1', T, 1] } },
			[lead('a', 'u2', T + MIN), lead('b', 'u2', T + MIN)],
			AROUND_THE_CLOCK,
		);
		expect(missed.waits).toEqual({ a: ['u2', T + MIN, 0, 'u1'], b: ['u2', T + MIN, 0] });
	});

	test('back to an advisor who already missed the lead: not announced again', () => {
		const back = noteAssigned(
			{ waits: { a: ['u2', T, 2, 'u1'] } },
			[lead('a', 'u1', T + MIN)],
			AROUND_THE_CLOCK,
		);
		expect(back.waits.a).toEqual(['u1', T + MIN, 1, 'u1', 'u2']);
	});

	test('an advisor whose wait had ended before the lead moved on joins missed_by, even if never announced', () => {
		// The poll that announced the lead may not have been stored: the hand-off must not go back.
		const late = noteAssigned(
			{ waits: { a: ['u1', T, 0] } },
			[lead('a', 'u2', T + WAIT + MIN)],
			AROUND_THE_CLOCK,
		);
		expect(late.waits.a).toEqual(['u2', T + WAIT + MIN, 0, 'u1']);
		const early = noteAssigned(
			{ waits: { a: ['u1', T, 0] } },
			[lead('a', 'u2', T + WAIT - MIN)],
			AROUND_THE_CLOCK,
		);
		expect(early.waits.a).toEqual(['u2', T + WAIT - MIN, 0]);
		const twice = noteAssigned(
			{ waits: { a: ['u2', T, 0, 'u1'] } },
			[lead('a', 'u3', T + WAIT + MIN)],
			AROUND_THE_CLOCK,
		);
		expect(twice.waits.a).toEqual(['u3', T + WAIT + MIN, 0, 'u1', 'u2']);
	});

	test('the waits noted are those of the read; a missing lead is keepAbsent’s (absentLead.test.ts)', () => {
		expect(noteAssigned({ waits: { a: ['u1', T, 2] } }, [], AROUND_THE_CLOCK)).toEqual({
			waits: {},
		});
	});
});

describe('when a wait has ended', () => {
	const waits: NotContactedPosition = {
		waits: { late: ['u', T, 0], early: ['u', T + MIN, 0], done: ['u', T, 1] },
	};

	test('on the service time handed in: at start + wait, oldest first, checked ones never', () => {
		expect(dueLeads(waits, T + 15 * MIN - 1, AROUND_THE_CLOCK)).toEqual([]);
		expect(dueLeads(waits, T + 15 * MIN, AROUND_THE_CLOCK)).toEqual(['late']);
		expect(dueLeads(waits, T + 20 * MIN, AROUND_THE_CLOCK)).toEqual(['late', 'early']);
	});

	test("the service's time is its Date header, whatever n8n's clock says; without one, n8n's less a minute", () => {
		const header = { date: 'Sun, 01 Mar 2026 10:00:00 GMT' };
		expect(serviceNowOf(header, T + 10 * 24 * 60 * MIN)).toBe(T);
		expect(serviceNowOf(header, T - 10 * 24 * 60 * MIN)).toBe(T);
		expect(serviceNowOf({}, T)).toBe(T - MIN);
	});
});
