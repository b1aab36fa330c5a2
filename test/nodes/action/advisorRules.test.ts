import { fits, ruleOfRow, textList } from '../../../nodes/LeadConversations/helpers/advisorRules';
import { planAssignment } from '../../../nodes/LeadConversations/helpers/assignPlan';
import type { Advisor } from '../../../nodes/LeadConversations/helpers/roster';

describe('textList', () => {
	test.each([
		[
			['a', ' b ', '', null],
			['a', 'b'],
		],
		['["a", " b "]', ['a', 'b']],
		[' a, ,b ,', ['a', 'b']],
		['', []],
		[null, []],
		['[not json', ['[not json']],
	])('%p → %p', (value, list) => {
		expect(textList(value)).toEqual(list);
	});

	test('a number or an object is no list', () => {
		expect(textList(5)).toBeUndefined();
		expect(textList({ a: 1 })).toBeUndefined();
	});
});

describe('rules', () => {
	test('snake_case and camelCase columns read alike; empty parts set nothing', () => {
		const snake = ruleOfRow('Row', { min_score: 60, vehicle_words: 'Hilux', channels: 'phone' });
		const camel = ruleOfRow('Row', { minScore: 60, vehicleWords: ['hilux'], channels: ['phone'] });
		expect(snake).toEqual(camel);
		expect(snake.rule).toEqual({ channels: ['phone'], minScore: 60, vehicleWords: ['hilux'] });
		expect(ruleOfRow('Row', { channels: [], intents: '', minScore: 0, vehicleWords: '' })).toEqual({
			rule: undefined,
			problem: undefined,
		});
	});

	test('a lead fits when it meets every part given', () => {
		const rule = { channels: ['phone', 'api'], minScore: 50, vehicleWords: ['van'] };
		const lead = { channel: 'api', intent: 'unknown', score: 50, vehicle_interest: 'Big VAN' };
		expect(fits(rule, lead)).toBe(true);
		expect(fits(rule, { ...lead, score: 49 })).toBe(false);
		expect(fits(rule, { ...lead, channel: 'email' })).toBe(false);
		expect(fits(rule, { ...lead, vehicle_interest: null })).toBe(false);
		expect(fits({ intents: ['browsing'] }, lead)).toBe(false);
	});
});

describe('planAssignment', () => {
	const roster: Advisor[] = ['a', 'b', 'c'].map((userId) => ({ userId, weight: 1, away: false }));
	const first = (eligible: Advisor[]) => ({ advisor: eligible[0].userId, candidates: eligible });
	const choices = { reassign: false, passOn: false, skip: [] as string[] };

	test('Reassign without Pass On may keep the current advisor; Pass On never does', () => {
		const lead = { assigned_to: 'a' };
		const kept = planAssignment('lead_1', lead, roster, { ...choices, reassign: true }, first);
		expect(kept.assignment).toMatchObject({ advisor: 'a', leftAsItWas: true, handoffs: 0 });
		const moved = planAssignment('lead_1', lead, roster, { ...choices, passOn: true }, first);
		expect(moved.assignment).toMatchObject({ advisor: 'b', reason: 'passed on', handoffs: 1 });
		expect(moved.eligible.map((advisor) => advisor.userId)).toEqual(['b', 'c']);
	});

	test('Reassign away from a skipped current advisor counts it once', () => {
		const plan = planAssignment(
			'lead_1',
			{ assigned_to: 'b' },
			roster,
			{ ...choices, reassign: true, skip: ['b', 'a'] },
			first,
		);
		expect(plan.assignment).toMatchObject({
			advisor: 'c',
			reason: 'reassigned',
			passedOver: ['b', 'a'],
			handoffs: 2,
		});
	});
});
