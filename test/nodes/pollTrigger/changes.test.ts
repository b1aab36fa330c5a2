// The New or Updated Lead position's rules, as pure functions (changes.ts, changesPoll.ts's clock,
// pollCost.ts's arithmetic).

import type { IDataObject } from 'n8n-workflow';

import {
	BEGINNING,
	announce,
	closePass,
} from '../../../nodes/LeadConversationsPollTrigger/changes';
import {
	FALLBACK_CLOCK_MARGIN_MS,
	serviceTimeOf,
} from '../../../nodes/LeadConversationsPollTrigger/changesPoll';
import {
	KEY_RESERVE,
	leavesReserve,
	requestsPerPoll,
	shareOfLimit,
} from '../../../nodes/LeadConversationsPollTrigger/pollCost';

const lead = (id: string, updatedAt: string): IDataObject => ({ id, updated_at: updatedAt });
const T = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds)).toISOString();

describe('announcing against the mark', () => {
	test('a lead updated at or after the mark is announced unless that very change was', () => {
		const position = { mark: T(10), announced: [`lead_a ${T(12)}`] };
		const { fresh, position: next } = announce(
			position,
			[lead('lead_a', T(12)), lead('lead_b', T(10)), lead('lead_c', T(9)), lead('lead_a2', T(30))],
			new Set(),
		);
		expect(fresh.map((l) => l.id)).toEqual(['lead_b', 'lead_a2']);
		expect(next.announced).toEqual([`lead_a ${T(12)}`, `lead_b ${T(10)}`, `lead_a2 ${T(30)}`]);
	});

	test('a lead changed again after it was announced is announced again', () => {
		const position = { mark: T(10), announced: [`lead_a ${T(12)}`] };
		expect(announce(position, [lead('lead_a', T(13))], new Set()).fresh).toHaveLength(1);
	});

	test('the next mark is the start of the pass, not the largest updated_at: a change made after its page was read is still ahead of it', () => {
		// The pass started at 20; lead_x's page was read at 21, and lead_x changed at 22; lead_y,
		// on a later page, changed at 25 and was read with it.
		const during = announce({ mark: T(10), announced: [] }, [lead('lead_y', T(25))], new Set());
		const closed = closePass(during.position, T(20));
		expect(closed.mark).toBe(T(20));
		expect(closed.announced).toEqual([`lead_y ${T(25)}`]);
		const next = announce(closed, [lead('lead_x', T(22)), lead('lead_y', T(25))], new Set());
		expect(next.fresh.map((l) => l.id)).toEqual(['lead_x']);
	});

	test('closing a pass keeps only the changes at or after the new mark, and never moves the mark back', () => {
		const position = { mark: T(30), announced: [`a ${T(31)}`, `b ${T(40)}`, `c ${T(45)}`] };
		expect(closePass(position, T(40))).toEqual({
			mark: T(40),
			announced: [`b ${T(40)}`, `c ${T(45)}`],
		});
		expect(closePass(position, T(20)).mark).toBe(T(30));
	});

	test('a fill announces every lead; it keeps only the pairs from its own start on', () => {
		const position = {
			mark: BEGINNING,
			announced: [],
			filling: true as const,
			pass: { start: T(20), cursor: 'c' },
		};
		const step = announce(position, [lead('old', T(1)), lead('new', T(21))], new Set());
		expect(step.fresh).toHaveLength(2);
		expect(step.position.announced).toEqual([`new ${T(21)}`]);
		expect(closePass(step.position, T(20))).toEqual({ mark: T(20), announced: [`new ${T(21)}`] });
	});

	test('the same change twice in one poll (a shifted page) is announced once', () => {
		const seen = new Set<string>();
		const position = {
			mark: BEGINNING,
			announced: [],
			filling: true as const,
			pass: { start: T(50), cursor: '' },
		};
		expect(announce(position, [lead('a', T(1))], seen).fresh).toHaveLength(1);
		expect(announce(position, [lead('a', T(1))], seen).fresh).toHaveLength(0);
	});
});

describe("the service's clock", () => {
	test('the Date header less its resolution and a margin', () => {
		expect(serviceTimeOf({ date: 'Thu, 01 Jan 2026 12:00:10 GMT' }, Date.parse(T(99)))).toBe(T(8));
	});

	test("without a Date header, n8n's clock with a margin", () => {
		const sentAt = Date.parse(T(100));
		expect(serviceTimeOf({}, sentAt)).toBe(
			new Date(sentAt - FALLBACK_CLOCK_MARGIN_MS).toISOString(),
		);
		expect(serviceTimeOf({ date: 'not a date' }, sentAt)).toBe(
			new Date(sentAt - FALLBACK_CLOCK_MARGIN_MS).toISOString(),
		);
	});
});

describe('the cost', () => {
	test('N/100 requests per poll, rounded up, as a share of 1,000 per minute', () => {
		expect([0, 1, 100, 101, 1_000, 20_000, 100_000].map(requestsPerPoll)).toEqual([
			1, 1, 1, 2, 10, 200, 1_000,
		]);
		expect(shareOfLimit(20_000, 1)).toBe(20);
		expect(shareOfLimit(100_000, 5)).toBe(20);
	});

	test('a poll reads on while the key has half of its minute left, or says nothing of it', () => {
		expect(KEY_RESERVE).toBe(500);
		expect([undefined, 1_000, 500, 499, 0].map(leavesReserve)).toEqual([
			true,
			true,
			true,
			false,
			false,
		]);
	});
});
