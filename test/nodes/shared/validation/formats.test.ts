// The formats the service specifies: phones, emails, date-times, scores, limits, URLs and IDs.

import {
	checkDateRange,
	checkE164Phone,
	checkEmail,
	checkFieldsToUpdate,
	checkHttpUrl,
	checkIdPrefix,
	checkIsoDateTime,
	checkLimit,
	checkPlainId,
	checkScore,
	checkScoreRange,
	firstProblem,
} from '../../../../nodes/shared/validation';

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
