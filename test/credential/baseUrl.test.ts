import { normalizeBaseUrl } from '../../nodes/shared/baseUrl';

describe('normalizeBaseUrl', () => {
	it.each([
		['https://api.example.com/v1', 'https://api.example.com/v1'],
		['https://api.example.com/v1/', 'https://api.example.com/v1'],
		['  https://api.example.com/v1///  ', 'https://api.example.com/v1'],
		['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1'],
		['https://gateway.example.com/leads/v1', 'https://gateway.example.com/leads/v1'],
	])('accepts %j as %j', (raw, expected) => {
		expect(normalizeBaseUrl(raw)).toBe(expected);
	});

	it.each([
		['no version segment', 'https://api.example.com'],
		['another version', 'https://api.example.com/v2'],
		['a version that only starts like v1', 'https://api.example.com/v10'],
		['a path after the version', 'https://api.example.com/v1/leads'],
		['a query string', 'https://api.example.com/v1?x=1'],
		['no scheme', 'api.example.com/v1'],
		['another scheme', 'ftp://api.example.com/v1'],
		['user info in the address', 'https://user:secret@api.example.com/v1'],
		['nothing at all', '   '],
	])('rejects %s, naming the field and the expected form', (_case, raw) => {
		expect(() => normalizeBaseUrl(raw)).toThrow(
			/^Base URL must be an http\(s\) address ending in \/v1, like https:\/\/api\.example\.com\/v1/,
		);
	});

	it('shows what the credential holds, so the user can spot the mistake', () => {
		expect(() => normalizeBaseUrl('https://api.example.com/v2/')).toThrow(
			'but the credential has "https://api.example.com/v2"',
		);
		expect(() => normalizeBaseUrl('')).toThrow('but the credential has an empty value');
	});

	it('does not echo a password written into the address', () => {
		expect(() => normalizeBaseUrl('https://user:hunter2@api.example.com/v1')).toThrow(
			'but the credential has "https://…@api.example.com/v1"',
		);
	});
});
