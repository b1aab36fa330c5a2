// The share of a window a process leaves to the others spending the same key.

import {
	othersExpected,
	myShare,
	partOfSlack,
	spenders,
} from '../../../../nodes/shared/transport/share';

describe('the share of a window left to the others', () => {
	test('nothing while no others were seen, in the last window or this one: the share is unbounded', () => {
		expect(othersExpected(undefined, 0, 20)).toBe(0);
		expect(myShare(undefined, 0, 20)).toBe(Infinity);
		expect(myShare({ own: 20, others: 0 }, 0, 20)).toBe(Infinity);
	});

	test('a window shared 10 / 10 and used up: the same share again; less when the others spend more', () => {
		expect(othersExpected({ own: 10, others: 10 }, 0, 20)).toBe(10);
		expect(myShare({ own: 10, others: 10 }, 4, 20)).toBe(10);
		expect(myShare({ own: 10, others: 10 }, 12, 20)).toBe(8);
	});

	test('a window that left 6 unused: each of two takes 3 more, and the parts fill the window', () => {
		const mine = 20 - othersExpected({ own: 7, others: 7 }, 0, 20);
		expect(mine).toBe(10);
	});

	test('a window overrun by 2: each of two takes 1 less', () => {
		expect(20 - othersExpected({ own: 11, others: 11 }, 0, 20)).toBe(10);
	});

	test('a process that spent nothing in the last window claims half of what the others left', () => {
		expect(othersExpected({ own: 0, others: 20 }, 6, 20)).toBe(13);
		expect(othersExpected(undefined, 6, 20)).toBe(13);
	});

	test('spenders: the others taken to spend as this process does, two at least', () => {
		expect(spenders({ own: 10, others: 10 })).toBe(2);
		expect(spenders({ own: 10, others: 30 })).toBe(4);
		expect(spenders({ own: 10, others: 2 })).toBe(2);
		expect(spenders({ own: 1, others: 100 })).toBe(16);
	});

	test('a part of the slack: one spender’s, rounded down, and at least one of two or more left', () => {
		expect(partOfSlack(6, 2)).toBe(3);
		expect(partOfSlack(1, 2)).toBe(0);
		expect(partOfSlack(2, 4)).toBe(1);
		expect(partOfSlack(-2, 2)).toBe(-1);
		expect(partOfSlack(-3, 2)).toBe(-2);
	});
});
