import { createHmac, randomBytes, timingSafeEqual } from 'crypto';
import { invalidField } from './errors';
import type { Position } from './store';

/** Filters as normalized by the route; carried inside the cursor. */
export type CursorFilters = Record<string, string | number>;

export interface DecodedCursor {
	filters: CursorFilters;
	after: Position;
}

interface Payload {
	/** Resource the cursor belongs to (leads, conversations, agents). */
	r: string;
	/** Organization: a cursor of one organization is useless to another. */
	o: string;
	f: CursorFilters;
	/** Keyset position: created_ms and id of the last record of the page. */
	k: [number, string];
}

const TAG_BYTES = 16;

/**
 * Opaque cursors: base64url(JSON of filters and keyset position) + '.' + HMAC tag. The tag
 * (per-process secret) makes a tampered or invented cursor detectable, so the filters inside
 * can be trusted without validating them again.
 */
export class CursorCodec {
	private readonly secret = randomBytes(32);

	encode(
		resource: string,
		organizationId: string,
		filters: CursorFilters,
		after: Position,
	): string {
		const payload: Payload = {
			r: resource,
			o: organizationId,
			f: filters,
			k: [after.ms, after.id],
		};
		const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
		return `${body}.${this.tag(body).toString('base64url')}`;
	}

	decode(raw: string, resource: string, organizationId: string): DecodedCursor {
		const dot = raw.indexOf('.');
		if (dot <= 0) throw invalidField('cursor', 'not a cursor returned by this service');
		const body = raw.slice(0, dot);
		const tag = Buffer.from(raw.slice(dot + 1), 'base64url');
		const expected = this.tag(body);
		if (tag.length !== expected.length || !timingSafeEqual(tag, expected)) {
			throw invalidField('cursor', 'invalid or tampered cursor');
		}
		let payload: Payload;
		try {
			payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
		} catch {
			throw invalidField('cursor', 'invalid or tampered cursor');
		}
		if (payload.r !== resource || payload.o !== organizationId) {
			throw invalidField('cursor', `cursor does not belong to this ${resource} list`);
		}
		return { filters: payload.f, after: { ms: payload.k[0], id: payload.k[1] } };
	}

	private tag(body: string): Buffer {
		return createHmac('sha256', this.secret).update(body).digest().subarray(0, TAG_BYTES);
	}
}
