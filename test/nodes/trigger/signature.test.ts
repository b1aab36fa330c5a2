import { createHmac } from 'crypto';

import { isValidSignature } from '../../../nodes/shared/events/signature';
import { seededRandom } from '../../../harness/support/random';
import { mutateSignedDelivery } from './mutations';

const SECRET = 'a3f1c0de5ecre7';
const BODY = Buffer.from(
	'{"event":"lead.qualified","timestamp":"2025-01-10T12:00:00Z","organization_id":"org_alpha","data":{"id":"lead_1","score":91}}',
);

function sign(body: Buffer | string, secret = SECRET): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

describe('isValidSignature: the X-Service-Signature check on raw body bytes', () => {
	it('accepts the hex HMAC-SHA256 of the exact body bytes', () => {
		expect(isValidSignature(SECRET, BODY, sign(BODY))).toBe(true);
	});

	it('accepts the right digest written in upper-case hex', () => {
		expect(isValidSignature(SECRET, BODY, sign(BODY).toUpperCase())).toBe(true);
	});

	const reserialized = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 2));
	const digest = sign(BODY);
	const flipped = digest.slice(0, 10) + (digest[10] === '0' ? '1' : '0') + digest.slice(11);
	const rejected: Array<[string, string, Buffer, string | string[] | undefined]> = [
		[
			'an altered byte in the body',
			SECRET,
			Buffer.from(BODY.toString().replace('91', '92')),
			digest,
		],
		['an altered digest', SECRET, BODY, flipped],
		['a truncated digest', SECRET, BODY, digest.slice(0, 63)],
		['a digest with one character too many', SECRET, BODY, `${digest}0`],
		['the digest of another body', SECRET, BODY, sign('{"event":"lead.created"}')],
		['no header at all', SECRET, BODY, undefined],
		['an empty header', SECRET, BODY, ''],
		['a header sent twice', SECRET, BODY, [digest, digest]],
		['non-hex characters of the right length', SECRET, BODY, `${digest.slice(0, 62)}zz`],
		['a "sha256=" prefix', SECRET, BODY, `sha256=${digest}`],
		[
			'the base64 form of the right digest',
			SECRET,
			BODY,
			Buffer.from(digest, 'hex').toString('base64'),
		],
		['an empty secret', '', BODY, sign(BODY, '')],
		['the body re-serialized with other spacing', SECRET, reserialized, digest],
		['a digest made with another secret', SECRET, BODY, sign(BODY, 'another-secret')],
	];

	it.each(rejected)('rejects %s', (_case, secret, body, header) => {
		expect(isValidSignature(secret, body, header)).toBe(false);
	});

	it('rejects when no secret is known, even with a header', () => {
		expect(isValidSignature(undefined, BODY, sign(BODY))).toBe(false);
	});

	it('rejects every one of 2,000 random mutations of a signed delivery', () => {
		const random = seededRandom(20250110);
		for (let i = 0; i < 2000; i++) {
			const mutated = mutateSignedDelivery(random, BODY, sign(BODY));
			expect({
				how: mutated.how,
				valid: isValidSignature(SECRET, mutated.body, mutated.header),
			}).toEqual({
				how: mutated.how,
				valid: false,
			});
		}
	});
});
