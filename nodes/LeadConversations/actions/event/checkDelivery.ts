import { type EventPayload, parseEventPayload } from '../../../shared/events/payload';
import { type ReplayWindow, timestampVerdict } from '../../../shared/events/replayWindow';
import { isValidSignature } from '../../../shared/events/signature';

/** Why a delivery is refused; stable codes a workflow can branch on. */
export type RejectionReason =
	| 'missing_signature'
	| 'invalid_signature'
	| 'not_an_event'
	| 'outside_replay_window'
	| 'duplicate';

export interface Rejection {
	reason: RejectionReason;
	message: string;
}

export type DeliveryCheck = { payload: EventPayload } | Rejection;

/**
 * The checks of one delivery that need nothing but its bytes, in the trigger's order: the
 * signature over the exact raw body first (nothing is parsed before it holds), then the body
 * must be an event, then its timestamp must be inside the replay window. Messages never quote
 * the secret nor the expected digest.
 */
export function checkDelivery(
	signingSecret: string,
	rawBody: Buffer,
	header: string | string[] | undefined,
	now: number,
	window: ReplayWindow,
): DeliveryCheck {
	if (header === undefined || header === '') {
		return {
			reason: 'missing_signature',
			message: 'The request has no X-Service-Signature header',
		};
	}
	if (!isValidSignature(signingSecret, rawBody, header)) {
		return {
			reason: 'invalid_signature',
			message:
				'X-Service-Signature is not the HMAC-SHA256 of the raw body under the signing secret',
		};
	}
	const payload = parseEventPayload(rawBody);
	if (payload === undefined) {
		return {
			reason: 'not_an_event',
			message: 'The signed body is not a JSON object with an "event" name',
		};
	}
	const late = replayWindowProblem(payload.timestamp, now, window);
	if (late !== undefined) return { reason: 'outside_replay_window', message: late };
	return { payload };
}

/** Why a timestamp lies outside the window (the trigger's window: same edges, same default). */
function replayWindowProblem(
	timestamp: unknown,
	now: number,
	window: ReplayWindow,
): string | undefined {
	switch (timestampVerdict(timestamp, now, window)) {
		case 'inside':
			return undefined;
		case 'missing':
			return 'The event has no valid "timestamp", so its age cannot be checked';
		case 'tooOld':
			return `The event occurred ${Math.ceil((now - Date.parse(String(timestamp))) / 60_000)} minutes ago, more than the replay window of ${window.maxAgeMinutes} minutes`;
		case 'tooNew':
			return `The event's timestamp is more than ${window.maxAheadMinutes} minutes in the future`;
	}
}
