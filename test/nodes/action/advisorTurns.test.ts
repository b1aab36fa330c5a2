import {
	giveBackTurn,
	pickByLead,
	pickByTurn,
} from '../../../nodes/LeadConversations/helpers/advisorTurns';
import type { Advisor } from '../../../nodes/LeadConversations/helpers/roster';

const roster = (weights: number[], away: number[] = []): Advisor[] =>
	weights.map((weight, index) => ({ userId: `user_${index}`, weight, away: away.includes(index) }));
const indexOf = (userId: string) => Number(userId.slice('user_'.length));
/** Lead IDs shaped like the service's: lead_ and 8 characters. */
const leadIds = (count: number, offset = 0) =>
	Array.from({ length: count }, (_, index) => `lead_${(offset + index + 36 ** 7).toString(36)}`);
let key = 0;
const turnKey = () => `test-turns-${++key}`;

describe('Take Turns: smooth weighted rotation in memory', () => {
	test('equal weights go round in roster order', () => {
		const k = turnKey();
		const picks = leadIds(8).map((id) => pickByTurn(k, id, roster([1, 1, 1])));
		expect(picks.map(indexOf)).toEqual([0, 1, 2, 0, 1, 2, 0, 1]);
	});

	test('weights 3, 2, 1, 1: at every point each advisor is within one lead of their share', () => {
		const k = turnKey();
		const advisors = roster([3, 2, 1, 1]);
		const counts = [0, 0, 0, 0];
		for (const [n, id] of leadIds(700).entries()) {
			counts[indexOf(pickByTurn(k, id, advisors))]++;
			counts.forEach((count, index) => {
				expect(Math.abs(count - ((n + 1) * advisors[index].weight) / 7)).toBeLessThan(1);
			});
		}
		expect(counts).toEqual([300, 200, 100, 100]);
	});

	test('a lead picked before gets the same advisor and uses no turn, unless that advisor is now away', () => {
		const k = turnKey();
		const [a, b] = leadIds(2);
		expect(pickByTurn(k, a, roster([1, 1, 1]))).toBe('user_0');
		expect(pickByTurn(k, a, roster([1, 1, 1]))).toBe('user_0');
		expect(pickByTurn(k, b, roster([1, 1, 1]))).toBe('user_1');
		expect(pickByTurn(k, a, roster([1, 1, 1], [0]))).not.toBe('user_0');
	});

	test('an away advisor gets no turn and resumes when back', () => {
		const k = turnKey();
		const ids = leadIds(9);
		const away = ids.slice(0, 6).map((id) => pickByTurn(k, id, roster([1, 1, 1], [1])));
		expect(away.map(indexOf)).toEqual([0, 2, 0, 2, 0, 2]);
		const back = ids.slice(6).map((id) => pickByTurn(k, id, roster([1, 1, 1])));
		expect(back.map(indexOf).sort()).toEqual([0, 1, 2]);
	});

	test('a turn given back goes to the same advisor next', () => {
		const k = turnKey();
		const [a, b] = leadIds(2);
		const advisors = roster([1, 1]);
		giveBackTurn(k, a, pickByTurn(k, a, advisors), advisors);
		expect(pickByTurn(k, b, advisors)).toBe('user_0');
	});

	test('turns of two workflows or nodes are kept apart', () => {
		const [first, second] = [turnKey(), turnKey()];
		const [a, b] = leadIds(2);
		expect(pickByTurn(first, a, roster([1, 1]))).toBe('user_0');
		expect(pickByTurn(second, b, roster([1, 1]))).toBe('user_0');
	});
});

describe('Spread by Lead ID: weighted rendezvous hashing', () => {
	test('weights 2, 1, 1 over 100,000 leads: each share within 1 point of its weight', () => {
		const counts = [0, 0, 0];
		for (const id of leadIds(100_000)) counts[indexOf(pickByLead(id, roster([2, 1, 1])))]++;
		expect(Math.abs(counts[0] / 100_000 - 0.5)).toBeLessThan(0.01);
		expect(Math.abs(counts[1] / 100_000 - 0.25)).toBeLessThan(0.01);
		expect(Math.abs(counts[2] / 100_000 - 0.25)).toBeLessThan(0.01);
	});

	test('an away advisor gets none, and only their leads move', () => {
		const ids = leadIds(2000);
		const before = ids.map((id) => pickByLead(id, roster([1, 1, 1, 1])));
		const after = ids.map((id) => pickByLead(id, roster([1, 1, 1, 1], [2])));
		expect(after).not.toContain('user_2');
		ids.forEach((_, index) => {
			if (before[index] !== 'user_2') expect(after[index]).toBe(before[index]);
		});
	});

	test('a fifth advisor takes about a fifth of the leads and no lead moves between the others', () => {
		const ids = leadIds(10_000);
		const moved = ids.filter((id) => {
			const before = pickByLead(id, roster([1, 1, 1, 1]));
			const after = pickByLead(id, roster([1, 1, 1, 1, 1]));
			if (after !== before) expect(after).toBe('user_4');
			return after !== before;
		});
		expect(moved.length / ids.length).toBeGreaterThan(0.18);
		expect(moved.length / ids.length).toBeLessThan(0.22);
	});

	test('200 leads over 4 equal advisors: max − min behaves as a fair random split (mean 8 to 20 over 200 sets)', () => {
		const spreads = Array.from({ length: 200 }, (_, set) => {
			const counts = [0, 0, 0, 0];
			for (const id of leadIds(200, set * 200))
				counts[indexOf(pickByLead(id, roster([1, 1, 1, 1])))]++;
			return Math.max(...counts) - Math.min(...counts);
		});
		const mean = spreads.reduce((sum, spread) => sum + spread, 0) / spreads.length;
		expect(mean).toBeGreaterThan(8);
		expect(mean).toBeLessThan(20);
	});
});
