import { type EventPayload, parseEventPayload } from '../../../LeadConversationsTrigger/delivery';
import { isValidSignature } from '../../../LeadConversationsTrigger/signature';
import { replayWindowProblem } from './replayWindow';

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
	replayWindowMinutes: number,
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
	const late = replayWindowProblem(payload.timestamp, now, replayWindowMinutes);
	if (late !== undefined) return { reason: 'outside_replay_window', message: late };
	return { payload };
}
