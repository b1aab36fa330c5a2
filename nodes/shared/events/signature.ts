import { createHmac, timingSafeEqual } from 'crypto';

/** The service signs with HMAC-SHA256 and sends the digest hex-encoded: 32 bytes, 64 characters. */
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * Whether `header` (the `X-Service-Signature` value) is the hex HMAC-SHA256 of the exact
 * `rawBody` bytes under `signingSecret`.
 *
 * Fails closed: no secret, no header, a header sent twice (Node hands that over as an array),
 * a value of the wrong length or with non-hex characters are all rejected before any
 * comparison. The digests are compared as bytes in constant time, so upper- and lower-case
 * hex are both accepted and the comparison time says nothing about where they differ.
 */
export function isValidSignature(
	signingSecret: string | undefined,
	rawBody: Buffer,
	header: string | string[] | undefined,
): boolean {
	if (!signingSecret) return false;
	if (typeof header !== 'string') return false;
	if (!HEX_SHA256.test(header)) return false;

	const expected = createHmac('sha256', signingSecret).update(rawBody).digest();
	const received = Buffer.from(header, 'hex');
	if (received.length !== expected.length) return false;
	return timingSafeEqual(received, expected);
}
