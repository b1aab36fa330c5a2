// Sending in step with the key's rate-limit window (pacing.ts): wait while the window is known
// to be used up, take a slot, send, and learn from the answer.

import type { ApiContext, Connection } from './connection';
import { delays, waitFor } from './delays';
import {
	joinQueue,
	leaveQueue,
	pacingWaitMs,
	settleSlot,
	TAIL_LOOK_AGAIN_MS,
	takeSlot,
} from './pacing';
import type { Slot } from './pacingState';
import type { WaitBudget } from './rateLimit';
import type { Outgoing, SendOutcome } from './send';
import { sendOnce } from './send';

/**
 * Takes a slot of the key's window, first waiting for the reset while the window is known to be
 * used up (by this request's neighbours too: they take their slots before sending).
 */
async function takeSlotBeforeSending(
	this: ApiContext,
	connection: Connection,
	budget: WaitBudget,
	itemIndex?: number,
): Promise<Slot> {
	joinQueue(connection.pacing);
	try {
		for (;;) {
			const pacing = pacingWaitMs(connection.pacing, delays.now());
			// Pacing is only a saving: a wait that does not fit the budget is left to the service,
			// which answers 429 with a reset time the 429 handling can judge.
			if (pacing === 0 || !budget.fits(pacing)) break;
			// The short looks of one request at a time are not worth a line each.
			if (pacing > TAIL_LOOK_AGAIN_MS) {
				this.logger.debug(`Rate limit used up: waiting ${pacing} ms for the window to reset`);
			}
			budget.spend(pacing);
			await waitFor.call(this, pacing, itemIndex);
			// Neighbours that woke up first may have used up the new window already: look again.
		}
	} finally {
		leaveQueue(connection.pacing);
	}
	return takeSlot(connection.pacing, delays.now());
}

/** One attempt in a slot of the window; the slot is freed whatever the outcome. */
export async function sendPaced(
	this: ApiContext,
	connection: Connection,
	budget: WaitBudget,
	outgoing: Outgoing,
): Promise<SendOutcome> {
	const slot = await takeSlotBeforeSending.call(this, connection, budget, outgoing.itemIndex);
	let answer: { headers: Record<string, unknown>; status?: number } = { headers: {} };
	try {
		const outcome = await sendOnce.call(this, connection, outgoing);
		if ('response' in outcome) {
			answer = { headers: outcome.response.headers, status: outcome.response.statusCode };
		}
		return outcome;
	} finally {
		settleSlot(connection.pacing, slot, answer, delays.now());
	}
}
