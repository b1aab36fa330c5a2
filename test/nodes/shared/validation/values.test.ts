// The kinds of value a field takes: whole numbers, flags, text, choices, lists, optional fields.

import {
	checkBoolean,
	checkList,
	checkOneOf,
	checkRequiredText,
	checkText,
	checkWholeNumber,
	ifGiven,
	isGiven,
	type Problem,
} from '../../../../nodes/shared/validation';
describe('whole numbers', () => {
	test.each<[unknown, Problem]>([
		[1, undefined],
		[15, undefined],
		[30, undefined],
		[0, 'Follow-up Days must be a whole number from 1 to 30 (got 0)'],
		[31, 'Follow-up Days must be a whole number from 1 to 30 (got 31)'],
		[2.5, 'Follow-up Days must be a whole number from 1 to 30 (got 2.5)'],
		['5', 'Follow-up Days must be a whole number from 1 to 30 (got "5")'],
		[null, 'Follow-up Days must be a whole number from 1 to 30 (got null)'],
		[undefined, 'Follow-up Days must be a whole number from 1 to 30 (got nothing)'],
	])('from 1 to 30: %p', (value, problem) => {
		expect(checkWholeNumber('Follow-up Days', value, 1, 30)).toBe(problem);
	});
	test.each([NaN, Infinity])('from 1 to 30: %p is refused and named', (value) => {
		expect(checkWholeNumber('Follow-up Days', value, 1, 30)).toBe(
			`Follow-up Days must be a whole number from 1 to 30 (got ${String(value)})`,
		);
	});
	test.each<[unknown, Problem]>([
		[0, undefined],
		[1_000_000, undefined],
		[Number.MAX_SAFE_INTEGER, undefined],
		[-1, 'Offset must be a whole number of at least 0 (got -1)'],
		[0.5, 'Offset must be a whole number of at least 0 (got 0.5)'],
		[true, 'Offset must be a whole number of at least 0 (got true)'],
	])('without a maximum, at least 0: %p', (value, problem) => {
		expect(checkWholeNumber('Offset', value, 0)).toBe(problem);
	});
});

describe('flags', () => {
	test.each<[unknown, Problem]>([
		[true, undefined],
		[false, undefined],
		['yes', 'Unassign must be true or false (got "yes")'],
		['true', 'Unassign must be true or false (got "true")'],
		['', 'Unassign must be true or false (got "")'],
		[1, 'Unassign must be true or false (got 1)'],
		[0, 'Unassign must be true or false (got 0)'],
		[null, 'Unassign must be true or false (got null)'],
		[undefined, 'Unassign must be true or false (got nothing)'],
	])('%p', (value, problem) => {
		expect(checkBoolean('Unassign', value)).toBe(problem);
	});
});

describe('free text', () => {
	test.each<[unknown, Problem]>([
		['Call after 6 pm', undefined],
		['', undefined],
		[2024, undefined],
		[0, undefined],
		[-12.5, undefined],
		[true, 'Notes must be text (got true)'],
		[{ text: 'hi' }, 'Notes must be text (got {"text":"hi"})'],
		[['hi'], 'Notes must be text (got ["hi"])'],
		[null, 'Notes must be text (got null)'],
		[undefined, 'Notes must be text (got nothing)'],
	])('%p', (value, problem) => {
		expect(checkText('Notes', value)).toBe(problem);
	});
	test.each([NaN, Infinity, -Infinity])('the number %p is refused and named', (value) => {
		expect(checkText('Notes', value)).toBe(`Notes must be text (got ${String(value)})`);
	});
	test.each<[unknown, Problem]>([
		['Ana', undefined],
		['', 'Name is required'],
		['  \n ', 'Name is required'],
		[42, 'Name is required'],
		[undefined, 'Name is required'],
	])('required text %p', (value, problem) => {
		expect(checkRequiredText('Name', value)).toBe(problem);
	});
});

describe('values of a list of choices', () => {
	test.each<[unknown, Problem]>([
		['open', undefined],
		['closed', undefined],
		['Open', 'Status must be one of open, closed (got "Open")'],
		['', 'Status must be one of open, closed (got "")'],
		[1, 'Status must be one of open, closed (got 1)'],
		[undefined, 'Status must be one of open, closed (got nothing)'],
	])('%p', (value, problem) => {
		expect(checkOneOf('Status', value, ['open', 'closed'])).toBe(problem);
	});
});

describe('lists', () => {
	const oneOfAB = (field: string, entry: unknown) => checkOneOf(field, entry, ['a', 'b']);

	test.each<[unknown, Problem]>([
		[[], undefined],
		[['a', 'b', 'a'], undefined],
		['a', 'Tags must be a list (got "a")'],
		[{ 0: 'a' }, 'Tags must be a list (got {"0":"a"})'],
		[null, 'Tags must be a list (got null)'],
		[undefined, 'Tags must be a list (got nothing)'],
		[['a', 'c'], 'Tags (entry 2) must be one of a, b (got "c")'],
		[['x', 'y'], 'Tags (entry 1) must be one of a, b (got "x")'],
	])('%p', (value, problem) => {
		expect(checkList('Tags', value, oneOfAB)).toBe(problem);
	});
	test('each entry is checked under the list’s name and its position', () => {
		const checkEntry = jest.fn((_field: string, _entry: unknown): Problem => undefined);
		expect(checkList('Tags', ['a', 7], checkEntry)).toBeUndefined();
		expect(checkEntry.mock.calls).toEqual([
			['Tags (entry 1)', 'a'],
			['Tags (entry 2)', 7],
		]);
	});
});

describe('optional fields', () => {
	test.each<[unknown, boolean]>([
		[undefined, false],
		[null, false],
		['', true],
		[0, true],
		[false, true],
		[NaN, true],
		[[], true],
		[{}, true],
	])('%p is given: %p', (value, given) => {
		expect(isGiven(value)).toBe(given);
	});
	test.each([undefined, null])('a check is not run for %p', (value) => {
		const check = jest.fn(
			(_field: string, _value: unknown, _min: number, _max: number): Problem => 'never',
		);
		expect(ifGiven(check, 'Score', value, 0, 100)).toBeUndefined();
		expect(check).not.toHaveBeenCalled();
	});
	test.each<[unknown, Problem]>([
		[50, undefined],
		[101, 'Score must be a whole number from 0 to 100 (got 101)'],
		['', 'Score must be a whole number from 0 to 100 (got "")'],
	])('a given value %p is checked with the field and the extra arguments', (value, problem) => {
		expect(ifGiven(checkWholeNumber, 'Score', value, 0, 100)).toBe(problem);
	});
});
