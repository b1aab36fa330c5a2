import { type EventPayload, parseEventPayload } from './payload';
import { type ReplayWindow, timestampVerdict } from './replayWindow';
import { isValidSignature } from './signature';

export interface SignedDelivery {
	/** The exact bytes received. */
	rawBody: Buffer;
	/** The `X-Service-Signature` header as received (Node gives an array when it came twice). */
	signature: string | string[] | undefined;
}

/** Why a delivery is refused; each maps to one answer (`REFUSALS`). */
export type Refusal = 'unsigned' | 'malformed' | 'outsideWindow';

export type Verification =
	| { accepted: true; payload: EventPayload }
	| { accepted: false; refusal: Refusal; detail: string };

/**
 * The answer for each refusal. A delivery outside the replay window has a valid signature and
 * a well-formed body, so it is neither 401 nor 400: 403 says the sender is known and the request
 * understood but not accepted. Any non-2xx is a failed delivery for the service, so a real but
 * late delivery is retried and refused at most three more times, and never starts a run.
 */
export const REFUSALS: Record<Refusal, { status: number; body: string }> = {
	unsigned: { status: 401, body: 'Unauthorized' },
	malformed: { status: 400, body: 'Bad Request' },
	outsideWindow: { status: 403, body: 'Forbidden' },
};

/**
 * Checks a delivery in the order that leaks nothing: the signature on the raw bytes first (so
 * nothing about an unsigned body is parsed or logged), then the body, then the event's
 * `timestamp` against the replay window. Duplicates are a separate step (`deliveryKey`), after
 * the receiver has decided the event concerns it.
 */
export function verifyDelivery(
	delivery: SignedDelivery,
	signingSecret: string | undefined,
	window: ReplayWindow,
	now: number,
): Verification {
	if (!isValidSignature(signingSecret, delivery.rawBody, delivery.signature)) {
		return { accepted: false, refusal: 'unsigned', detail: 'signature missing or not valid' };
	}
	const payload = parseEventPayload(delivery.rawBody);
	if (payload === undefined) {
		return { accepted: false, refusal: 'malformed', detail: 'body is not an event' };
	}
	const verdict = timestampVerdict(payload.timestamp, now, window);
	if (verdict === 'missing') {
		return { accepted: false, refusal: 'malformed', detail: 'event has no valid timestamp' };
	}
	if (verdict !== 'inside') {
		const side = verdict === 'tooOld' ? 'older than' : 'further ahead than';
		const minutes = verdict === 'tooOld' ? window.maxAgeMinutes : window.maxAheadMinutes;
		return {
			accepted: false,
			refusal: 'outsideWindow',
			detail: `${payload.event} stamped ${String(payload.timestamp)} is ${side} ${minutes} minutes`,
		};
	}
	return { accepted: true, payload };
}
