// Pacing before a request, free of n8n: what is known about the current rate-limit window of a
// key, so that no request is spent on a certain 429.
//
// The limit is per key, so one state is shared by everything that uses the same key against the
// same service in this process: all items of an execution, and other executions. Other processes
// (the workers of n8n's queue mode) and other programs may spend the same key; the only thing
// they share with this state is what the service answers. A report lower than this process's own
// requests explain, or a 429 where the window was known to have room, shows that others spend the
// key: the state then leaves them a reserve of each window, as large as what they were seen to
// spend between two answers (at most half a window), and halves it with every window that starts
// after one in which they were not seen.

import { RATE_LIMIT_REMAINING_HEADER, RATE_LIMIT_RESET_HEADER } from '../constants';
import type { Headers } from './rateLimit';
import { RESET_MARGIN_MS, header, parseRemaining, parseResetHeader } from './rateLimit';

/**
 * Resets closer than this belong to the same window. Resets come in whole seconds, so the next
 * window's is at least a second later; a reset sent as "seconds from now" moves a little with
 * the moment each answer left the service.
 */
const SAME_WINDOW_MS = 1_000;

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
	/** Requests of each window left to other clients of the key: 0 while none were seen. */
	reserve?: number;
	/** Whether others were seen spending the known window. */
	othersInWindow?: boolean;
	/** The most requests one window was seen to allow: bounds the reserve. */
	capacity?: number;
}

/** A request's place in the window, from `takeSlot`, handed back to `settleSlot`. */
export interface Slot {
	/** The request's number: which requests were sent before it. */
	request: number;
	/** Requests known to be left after this one, when the window was known to have room for it. */
	roomLeft?: number;
}

/** An answer as pacing reads it: the rate-limit headers, and whether it was a 429. */
export interface PacingAnswer {
	headers: Headers;
	status?: number;
}

export function newPacingState(): PacingState {
	return { inFlight: 0, taken: 0, windowFrom: 0 };
}

/** Whether `state` describes the window that a request sent now goes into. */
function knowsCurrentWindow(state: PacingState, nowMs: number): boolean {
	return state.remaining !== undefined && state.resetAtMs !== undefined && state.resetAtMs > nowMs;
}

/**
 * Ms to wait before taking a slot, so that no request is spent on a certain 429: the window is
 * known to be used up, or to have no more than the reserve left to others, and has not reset yet.
 * Zero when requests are left or nothing is known (the first request, or a window that has reset:
 * the service tells on the next answer).
 */
export function pacingWaitMs(state: PacingState, nowMs: number): number {
	if (!knowsCurrentWindow(state, nowMs) || state.remaining! > (state.reserve ?? 0)) return 0;
	return state.resetAtMs! - nowMs + RESET_MARGIN_MS;
}

/**
 * Counts a request before it is sent, so that requests sent meanwhile see the window as this one
 * leaves it. Call it right after `pacingWaitMs` gave 0, with nothing awaited in between; a request
 * sent without the wait (one beyond the budget is left to the service's 429) takes a slot too.
 */
export function takeSlot(state: PacingState, nowMs: number): Slot {
	state.inFlight++;
	const request = ++state.taken;
	if (!knowsCurrentWindow(state, nowMs)) {
		// The counts of a window that has reset say nothing about the new one.
		state.remaining = undefined;
		state.resetAtMs = undefined;
		return { request };
	}
	const hadRoom = state.remaining! > 0;
	state.remaining = Math.max(0, state.remaining! - 1);
	return hadRoom ? { request, roomLeft: state.remaining } : { request };
}

/** Others spent at least `spent` requests this process did not know of: leave them as many. */
function noticeOthers(state: PacingState, spent: number): void {
	state.othersInWindow = true;
	// At most half of a window (as far as seen), so that this process keeps a share of each.
	const most = state.capacity !== undefined ? Math.max(1, Math.floor(state.capacity / 2)) : spent;
	state.reserve = Math.max(state.reserve ?? 0, Math.min(most, spent));
}

/** Others were not seen since the last answer: what they were seen to spend counts for less. */
function forgetOthersByHalf(state: PacingState): void {
	if (state.reserve) state.reserve = Math.floor(state.reserve / 2);
}

/**
 * Frees the slot of a request once it was answered or failed, and learns from the answer's
 * headers. Within one window the lowest count wins: an answer that arrives after later ones
 * reports more than is left, and other clients may have used some (which the reserve then
 * accounts for). Another reset opens a new window: its count, less the requests still on their
 * way, which it may not include. An answer changes nothing when its window is over, or when its
 * reset is older than the known one and its request was sent before the one that told about that
 * window (a late answer; sent after it, an older reset means the service changed its window).
 */
export function settleSlot(
	state: PacingState,
	slot: Slot,
	answer: PacingAnswer,
	nowMs: number,
): void {
	state.inFlight = Math.max(0, state.inFlight - 1);
	const reported = parseRemaining(header(answer.headers, RATE_LIMIT_REMAINING_HEADER));
	const resetAtMs = parseResetHeader(header(answer.headers, RATE_LIMIT_RESET_HEADER), nowMs);
	// A 429 where this process knew of room for the request: others spent what it counted on.
	if (answer.status === 429 && slot.roomLeft !== undefined) noticeOthers(state, slot.roomLeft + 1);
	if (reported === undefined || resetAtMs === undefined || resetAtMs <= nowMs) return;
	state.capacity = Math.max(state.capacity ?? 0, reported + 1);

	if (knowsCurrentWindow(state, nowMs)) {
		const knownResetAtMs = state.resetAtMs!;
		if (Math.abs(resetAtMs - knownResetAtMs) < SAME_WINDOW_MS) {
			// This process counted all of its own requests: fewer left means others spent them.
			if (reported < state.remaining!) noticeOthers(state, state.remaining! - reported);
			state.remaining = Math.max(0, Math.min(state.remaining!, reported));
			return;
		}
		if (resetAtMs < knownResetAtMs && slot.request < state.windowFrom) return;
	}
	// A new window: the reserve halves unless others were seen in the last one.
	if (!state.othersInWindow) forgetOthersByHalf(state);
	state.othersInWindow = false;
	state.remaining = Math.max(0, reported - state.inFlight);
	state.resetAtMs = resetAtMs;
	state.windowFrom = slot.request;
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
