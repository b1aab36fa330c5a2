// Pacing before a request, free of n8n: what is known about the current rate-limit window of a
// key, so that no request is spent on a certain 429.
//
// The limit is per key, so one state is shared by everything that uses the same key against the
// same service in this process: all items of an execution, and other executions. Other processes
// (the workers of n8n's queue mode) and other programs may spend the same key; the only thing
// they share with this state is what the service answers. A count lower than this process's own
// requests explain, or a 429 where the window was known to have room, shows that others spend the
// key. Its counts are then off by what others spend while a request is on its way, so it keeps a
// reserve of twice what they were seen to spend: down to the reserve it sends as usual, in the
// reserve one request at a time, each answer correcting the count, until no more is left than
// others spend while one request is on its way. Without others the reserve halves with every
// window. Another process may start at any moment without this one knowing, so the last requests
// of every window (twice as many as this process wants to send at once) also go one at a time, to
// the window's end, as far as that fits before the reset: a newcomer's requests then show in the
// next answer instead of overrunning the window. A process's very first request goes alone: the
// others wait for what its answer tells of the window.

import { RATE_LIMIT_REMAINING_HEADER, RATE_LIMIT_RESET_HEADER } from '../constants';
import type { PacingAnswer, PacingState, Slot } from './pacingState';
import { RESET_MARGIN_MS, header, parseRemaining, parseResetHeader } from './rateLimit';

/**
 * Resets closer than this belong to the same window. Resets come in whole seconds, so the next
 * window's is at least a second later; a reset sent as "seconds from now" moves a little with
 * the moment each answer left the service.
 */
const SAME_WINDOW_MS = 1_000;

/** Whether `state` describes the window that a request sent now goes into. */
function knowsCurrentWindow(state: PacingState, nowMs: number): boolean {
	return state.remaining !== undefined && state.resetAtMs !== undefined && state.resetAtMs > nowMs;
}

/**
 * How often a request waiting for this process's one request on its way (in the reserve, or the
 * first to a key) looks again.
 */
export const TAIL_LOOK_AGAIN_MS = 20;

/**
 * What others may spend while one request of this process in the reserve is on its way. None
 * while others were not seen: the cautious reserve of a process that may be alone is used to the
 * window's end.
 */
function tailMargin(state: PacingState): number {
	if (!state.reserve) return 0;
	return Math.max(1, state.tailMargin ?? 1, state.lastTailMargin ?? 1);
}

/** How many requests one at a time fit before the known window resets, at the usual answer time. */
function oneAtATimeUntilReset(state: PacingState, nowMs: number): number {
	if (state.answerMs === undefined || state.resetAtMs === undefined) return Infinity;
	return Math.floor((state.resetAtMs - nowMs) / Math.max(1, 2 * state.answerMs));
}

/**
 * The part of the window sent one request at a time: what others were seen to spend, twice; and,
 * since another process may start at any moment without this one knowing, twice the requests it
 * has wanted to send at once (what it would overrun a window by, were another process to do the
 * same), as far as they fit one at a time before the reset: alone, that costs no time.
 */
function reserveOf(state: PacingState, nowMs: number): number {
	const cautious = Math.min(2 * (state.peakDemand ?? 0), oneAtATimeUntilReset(state, nowMs));
	const reserve = Math.max(state.reserve ?? 0, cautious);
	return state.capacity !== undefined ? Math.min(reserve, state.capacity - 1) : reserve;
}

/**
 * Whether this process comes (back) to the key without knowing the window before it: its first
 * request, or its first after a whole window without answers. Such a request goes alone: sent
 * blind, all of a newcomer's requests would be 429s when others had used the window up. Right
 * after a reset a busy process sends as usual (the window has just opened), and so does one whose
 * service tells no counts.
 */
function returning(state: PacingState, nowMs: number): boolean {
	if (!state.heardBack) return true;
	if (state.lastResetAtMs === undefined) return false;
	return nowMs > state.lastResetAtMs + (state.windowMs ?? 0);
}

function noteWindowLength(state: PacingState, resetAtMs: number): void {
	const since = state.lastResetAtMs === undefined ? 0 : resetAtMs - state.lastResetAtMs;
	if (since >= SAME_WINDOW_MS) state.windowMs = Math.min(state.windowMs ?? since, since);
	state.lastResetAtMs = resetAtMs;
}

/**
 * Ms to wait before taking a slot, so that no request is spent on a certain 429. Zero when more
 * than the reserve is left, or nothing is known (a window that has reset: the service tells on
 * the next answer), except for a process that comes (back) to the key. In the reserve, one
 * request at a time: the count each answer brings is then off by what others spend meanwhile, so
 * the window is used to its end with at most a request or two racing the others. Otherwise the
 * reset.
 */
export function pacingWaitMs(state: PacingState, nowMs: number): number {
	if (!knowsCurrentWindow(state, nowMs)) {
		return returning(state, nowMs) && state.inFlight > 0 ? TAIL_LOOK_AGAIN_MS : 0;
	}
	if (state.remaining! > reserveOf(state, nowMs)) return 0;
	const untilReset = state.resetAtMs! - nowMs + RESET_MARGIN_MS;
	if (state.remaining! <= tailMargin(state)) return untilReset;
	return state.inFlight === 0 ? 0 : Math.min(TAIL_LOOK_AGAIN_MS, untilReset);
}

function notePeakDemand(state: PacingState): void {
	state.peakDemand = Math.max(state.peakDemand ?? 0, state.inFlight + (state.waiting ?? 0));
}

/** A request starts waiting for its slot: until it leaves the queue it counts as wanted. */
export function joinQueue(state: PacingState): void {
	state.waiting = (state.waiting ?? 0) + 1;
	notePeakDemand(state);
}

/** A request stopped waiting: it takes its slot next, or gave up. */
export function leaveQueue(state: PacingState): void {
	state.waiting = Math.max(0, (state.waiting ?? 0) - 1);
}

/**
 * Counts a request before it is sent, so that requests sent meanwhile see the window as this one
 * leaves it. Call it right after `pacingWaitMs` gave 0, with nothing awaited in between; a request
 * sent without the wait (one beyond the budget is left to the service's 429) takes a slot too.
 */
export function takeSlot(state: PacingState, nowMs: number): Slot {
	state.inFlight++;
	notePeakDemand(state);
	const request = ++state.taken;
	if (!knowsCurrentWindow(state, nowMs)) {
		// The counts of a window that has reset say nothing about the new one.
		state.remaining = undefined;
		state.resetAtMs = undefined;
		return { request, sentAtMs: nowMs };
	}
	const hadRoom = state.remaining! > 0;
	const reserve = reserveOf(state, nowMs);
	const inTail = hadRoom && reserve > 0 && state.remaining! <= reserve;
	state.remaining = Math.max(0, state.remaining! - 1);
	if (!hadRoom) return { request, sentAtMs: nowMs };
	const slot: Slot = { request, roomLeft: state.remaining, sentAtMs: nowMs };
	return inTail ? { ...slot, inTail } : slot;
}

/**
 * Others spent at least `spent` requests this process did not know of. They may spend as much
 * again while its next request is on its way, so it leaves them twice that; it still sends in
 * the reserve, one request at a time (`pacingWaitMs`).
 */
function noticeOthers(state: PacingState, spent: number, certain = true): void {
	if (certain) state.othersInWindow = true;
	const most = state.capacity !== undefined ? Math.max(1, state.capacity - 1) : 2 * spent;
	state.reserve = Math.max(state.reserve ?? 0, Math.min(most, 2 * spent));
}

/** Others spent `spent` while a request sent in the reserve was on its way. */
function noticeInTail(state: PacingState, spent: number): void {
	state.tailMargin = Math.max(state.tailMargin ?? 1, spent);
}

/** Smoothed, so that one slow answer does not end the caution of a whole window. */
function noteAnswerTime(state: PacingState, tookMs: number): void {
	state.answerMs =
		state.answerMs === undefined ? tookMs : 0.7 * state.answerMs + 0.3 * Math.max(0, tookMs);
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
	state.heardBack = true;
	const reported = parseRemaining(header(answer.headers, RATE_LIMIT_REMAINING_HEADER));
	const resetAtMs = parseResetHeader(header(answer.headers, RATE_LIMIT_RESET_HEADER), nowMs);
	// A 429 where this process knew of room for the request: others spent what it counted on.
	// Unless the 429 itself reports requests left: then it is about something else.
	const windowUsedUp = reported === undefined || reported === 0;
	if (answer.status === 429 && slot.roomLeft !== undefined && windowUsedUp) {
		noticeOthers(state, slot.roomLeft + 1);
		if (slot.inTail) noticeInTail(state, slot.roomLeft + 1);
	}
	if (reported === undefined || resetAtMs === undefined || resetAtMs <= nowMs) return;
	if (slot.sentAtMs !== undefined) noteAnswerTime(state, nowMs - slot.sentAtMs);
	// Fewer left than this process counted on when it sent: others spent the difference while the
	// request was on its way, which is how far off its counts are. Only while others are known
	// (a reserve): alone, its own requests overtaking each other on the way would read as others,
	// so this alone never keeps the reserve from being given back.
	const spentMeanwhile = slot.roomLeft === undefined ? 0 : slot.roomLeft - reported;
	if (answer.status !== 429 && spentMeanwhile > 0 && state.reserve) {
		noticeOthers(state, spentMeanwhile, false);
		if (slot.inTail) noticeInTail(state, spentMeanwhile);
	}
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
	// A new window: the reserve halves unless others were seen in the last one; what others spent
	// during requests in the reserve is kept for one more window.
	if (!state.othersInWindow) forgetOthersByHalf(state);
	state.othersInWindow = false;
	state.lastTailMargin = state.tailMargin;
	state.tailMargin = undefined;
	state.remaining = Math.max(0, reported - state.inFlight);
	noteWindowLength(state, resetAtMs);
	state.resetAtMs = resetAtMs;
	state.windowFrom = slot.request;
}
