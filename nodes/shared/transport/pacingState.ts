// What pacing (pacing.ts) knows of one key's rate-limit window, and where that knowledge lives:
// one state per key and service in this process, shared by its items and executions.

import type { Headers } from './rateLimit';

/**
 * What is known about the current window of one key. Requests run in parallel (items, executions),
 * so each takes its slot before it is sent, and answers may arrive in any order.
 */
export interface PacingState {
	/**
	 * Requests left in the window: the lowest count the service reported for it, less the slots
	 * taken since. Set together with `resetAtMs`; both are undefined while nothing is known (before
	 * the first answer, and once the window has reset).
	 */
	remaining?: number;
	/** When the window that `remaining` describes ends, ms since the epoch. */
	resetAtMs?: number;
	/** Requests sent and not answered yet. */
	inFlight: number;
	/** Slots taken so far: a request's number tells which requests were sent before it. */
	taken: number;
	/** Number of the request whose answer told about the known window. */
	windowFrom: number;
	/**
	 * The part of each window that others may spend before this process's counts catch up: sent
	 * into one request at a time. 0 while none were seen.
	 */
	reserve?: number;
	/** Whether others were seen spending the known window. */
	othersInWindow?: boolean;
	/** The most requests one window was seen to allow: bounds the reserve. */
	capacity?: number;
	/**
	 * What others were seen to spend while one request of this process sent in the reserve was on
	 * its way, in this window and in the last one: what is left to them at the end of a window.
	 */
	tailMargin?: number;
	lastTailMargin?: number;
	/** Requests waiting for a slot (`joinQueue`) and not sent yet. */
	waiting?: number;
	/** The most requests this process wanted to send at once: on their way, or waiting. */
	peakDemand?: number;
	/** An answer came back (with or without rate-limit headers). */
	heardBack?: boolean;
	/** The reset of the last window that became known, kept once it is past. */
	lastResetAtMs?: number;
	/** The shortest time seen between two windows' resets: the window's length, or a bound on it. */
	windowMs?: number;
	/** How long an answer takes, smoothed over the last ones: what one request at a time costs. */
	answerMs?: number;
}

/** A request's place in the window, from `takeSlot`, handed back to `settleSlot`. */
export interface Slot {
	/** The request's number: which requests were sent before it. */
	request: number;
	/** Requests known to be left after this one, when the window was known to have room for it. */
	roomLeft?: number;
	/** Sent in the reserve, with no other request of this process on its way. */
	inTail?: boolean;
	/** When it was sent, ms since the epoch. */
	sentAtMs?: number;
}

/** An answer as pacing reads it: the rate-limit headers, and whether it was a 429. */
export interface PacingAnswer {
	headers: Headers;
	status?: number;
}

export function newPacingState(): PacingState {
	return { inFlight: 0, taken: 0, windowFrom: 0 };
}

const pacingStates = new Map<string, PacingState>();

/** The state for one key at one service; `stateKey` never contains the key itself. */
export function pacingStateFor(stateKey: string): PacingState {
	let state = pacingStates.get(stateKey);
	if (!state) {
		state = newPacingState();
		pacingStates.set(stateKey, state);
	}
	return state;
}
