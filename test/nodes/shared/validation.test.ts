import {
	checkBoolean,
	checkDateRange,
	checkE164Phone,
	checkEmail,
	checkFieldsToUpdate,
	checkHttpUrl,
	checkIdPrefix,
	checkIsoDateTime,
	checkLimit,
	checkList,
	checkOneOf,
	checkPlainId,
	checkRequiredText,
	checkScore,
	checkScoreRange,
	checkText,
	checkWholeNumber,
	firstProblem,
	ifGiven,
	isGiven,
	type Problem,
} from '../../../nodes/shared/validation';

describe('E.164 phone numbers', () => {
	test.each(['+5491155550123', '+14155550100', '+12', '+123456789012345'])(
		'%s is accepted',
		(phone) => {
			expect(checkE164Phone('Phone', phone)).toBeUndefined();
		},
	);
	test.each([
		'5491155550123',
		'+0491155550123',
		'+54 9 11 5555-0123',
		'+1234567890123456',
		'+1',
		'',
		undefined,
	])('%p is refused with a message naming the field', (phone) => {
		expect(checkE164Phone('Phone', phone)).toMatch(/^Phone must be in E\.164 format/);
	});
});

describe('email addresses', () => {
	test.each(['maria@example.com', 'a.b+c@sub.example.org'])('%s is accepted', (email) => {
		expect(checkEmail('Email', email)).toBeUndefined();
	});
	test.each(['maria', 'maria@', '@example.com', 'maria@example', 'ma ria@example.com'])(
		'%s is refused',
		(email) => {
			expect(checkEmail('Email', email)).toMatch(/^Email is not a valid email address/);
		},
	);
});

describe('ISO 8601 date-times', () => {
	test.each([
		'2025-05-01T00:00:00Z',
		'2025-05-01T00:00:00.123Z',
		'2025-05-01T10:30:00-03:00',
		'2025-05-01T10:30:00+0530',
		'2025-05-01T10:30',
		'2024-02-29T00:00:00Z',
	])('%s is accepted', (value) => {
		expect(checkIsoDateTime('Created After', value)).toBeUndefined();
	});
	test.each([
		'2025-05-01',
		'yesterday',
		'01/05/2025',
		'2025-13-01T00:00:00Z',
		'2025-02-30T00:00:00Z',
		'2023-02-29T00:00:00Z',
		'2025-05-01T24:00:00Z',
		'',
		42,
	])('%p is refused with a message naming the field', (value) => {
		expect(checkIsoDateTime('Created After', value)).toMatch(
			/^Created After must be an ISO 8601 date-time/,
		);
	});
	test('a range whose start is after its end is refused', () => {
		expect(
			checkDateRange(
				'Created After',
				'2025-06-01T00:00:00Z',
				'Created Before',
				'2025-05-01T00:00:00Z',
			),
		).toMatch(/Created After .* must not be later than Created Before/);
		expect(
			checkDateRange(
				'Created After',
				'2025-05-01T00:00:00Z',
				'Created Before',
				'2025-05-01T00:00:00Z',
			),
		).toBeUndefined();
	});
});

describe('scores', () => {
	test.each([0, 1, 50, 100])('%p is accepted', (score) => {
		expect(checkScore('Score Min', score)).toBeUndefined();
	});
	test.each([-1, 101, 50.5, '50', undefined])('%p is refused', (score) => {
		expect(checkScore('Score Min', score)).toMatch(
			/^Score Min must be a whole number from 0 to 100/,
		);
	});
	test('min greater than max is refused; equal bounds are fine', () => {
		expect(checkScoreRange('Score Min', 80, 'Score Max', 20)).toBe(
			'Score Min (80) must not be greater than Score Max (20)',
		);
		expect(checkScoreRange('Score Min', 20, 'Score Max', 20)).toBeUndefined();
		expect(checkScoreRange('Score Min', 20, 'Score Max', undefined)).toBeUndefined();
	});
});

describe('limits, URLs and IDs', () => {
	test.each([0, -5, 2.5, '10', undefined])('limit %p is refused', (limit) => {
		expect(checkLimit('Limit', limit)).toMatch(/^Limit must be a whole number of at least 1/);
	});
	test('limit 1 is the smallest accepted', () => {
		expect(checkLimit('Limit', 1)).toBeUndefined();
	});
	test.each(['https://cdn.example.com/a.jpg', 'http://example.com/doc.pdf'])(
		'%s is a URL',
		(url) => {
			expect(checkHttpUrl('Content', url)).toBeUndefined();
		},
	);
	test.each(['ftp://example.com/a.pdf', 'example.com/a.jpg', 'hello', 'file:///etc/passwd', ''])(
		'%s is not an http(s) URL',
		(url) => {
			expect(checkHttpUrl('Content', url)).toMatch(
				/^Content must be a publicly accessible http\(s\) URL/,
			);
		},
	);
	test.each([
		['lead_abc', undefined],
		['conv_abc', 'Lead must be an ID starting with "lead_" (got "conv_abc")'],
		['lead_', 'Lead must be an ID starting with "lead_" (got "lead_")'],
		['lead_a/b', 'Lead must be an ID starting with "lead_" (got "lead_a/b")'],
		['', 'Lead is required'],
	])('lead ID %p', (id, problem) => {
		expect(checkIdPrefix('Lead', id, 'lead_')).toBe(problem);
	});
	test('agent IDs need no prefix but must be URL-safe', () => {
		expect(checkPlainId('Agent', 'agent_1')).toBeUndefined();
		expect(checkPlainId('Agent', 'a b')).toMatch(/^Agent is not a valid ID/);
		expect(checkPlainId('Agent', '')).toBe('Agent is required');
	});
	test('firstProblem keeps the order of the checks', () => {
		expect(firstProblem(undefined, 'second', 'third')).toBe('second');
		expect(firstProblem(undefined, undefined)).toBeUndefined();
	});
});

describe('updates', () => {
	test('an update needs at least one field', () => {
		expect(checkFieldsToUpdate('Update Fields', { status: 'new' })).toBeUndefined();
		expect(checkFieldsToUpdate('Update Fields', { assigned_to: null })).toBeUndefined();
		expect(checkFieldsToUpdate('Update Fields', {})).toBe(
			'Update Fields is empty: add at least one field to update',
		);
	});
});

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
