// Pacing before a request, free of n8n: what is known about the current rate-limit window of a
// key, so that no request is spent on a certain 429.
//
// The limit is per key, so one state is shared by everything that uses the same key against the
// same service in this process: all items of an execution, and other executions. Other processes
// (the workers of n8n's queue mode) and other programs may spend the same key; the only thing
// they share with this state is what the service answers. Each answer tells how much of the
// window the service counted; what this process did not send, others did. The state leaves them
// what they are expected to spend in the window (share.ts), and takes the rest.
import { RATE_LIMIT_REMAINING_HEADER, RATE_LIMIT_RESET_HEADER } from '../constants';
import type { Headers } from './rateLimit';
import { RESET_MARGIN_MS, header, parseRemaining, parseResetHeader } from './rateLimit';
import { myShare, othersExpected, type WindowSpending } from './share';

/**
 * Resets closer than this belong to the same window. Resets come in whole seconds, so the next
 * window's is at least a second later; a reset sent as "seconds from now" moves a little with
 * the moment each answer left the service.
 */
const SAME_WINDOW_MS = 1_000;

/**
 * Requests of the others a process that stopped at its share may not have seen: those sent after
 * its last answer. Fewer missing than this are taken as sent; more mean they spent less.
 */
const UNSEEN_TAIL = 2;

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
	/** Number of the current window, counted from 0 as windows end. */
	window?: number;
	/** Slots taken in the current window (since the last one ended), and those of the windows
	 * before still on their way when it began: the service may count them in this one. */
	own?: number;
	straddling?: number;
	/** Requests of others in the current window, as far as the answers showed. */
	others?: number;
	/** Own requests of the current window answered 429, and whether it was seen used up. */
	refused?: number;
	usedUp?: boolean;
	/** Whether this process took its whole share of the current window. */
	held?: boolean;
	/** While others share the key: the earliest moment for the next slot (requests spread). */
	nextAtMs?: number;
	/** The most requests a window was seen to allow, this one or those before it. */
	capacity?: number;
	/** The last window, when it ended right before the current one. */
	last?: WindowSpending & { capacity?: number };
	/** When the last window ended, and how long one lasts (from two windows in a row). */
	endedAtMs?: number;
	windowMs?: number;
}

/** A request's place in the window, from `takeSlot`, handed back to `settleSlot`. */
export interface Slot {
	/** The request's number: which requests were sent before it. */
	request: number;
	/** Requests known to be left after this one, when the window was known to have room for it. */
	roomLeft?: number;
	/** The window it was sent in, and how many slots that window had taken by then, its own too. */
	window: number;
	own: number;
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

/** The most requests a window allows, as far as this window and the last one showed. */
function capacityOf(state: PacingState): number {
	return Math.max(state.capacity ?? 0, state.last?.capacity ?? 0);
}

/** Requests this process may take in the current window (share.ts); unbounded when alone. */
function shareOf(state: PacingState, nowMs: number): number {
	const left =
		state.windowMs && state.resetAtMs !== undefined
			? Math.min(1, Math.max(0, (state.resetAtMs - nowMs) / state.windowMs))
			: 1;
	return myShare(state.last, state.others ?? 0, capacityOf(state), left);
}

/**
 * Ms to wait before taking a slot, so that no request is spent on a certain 429: the window is
 * known to be used up, or this process took its share of it while others spend the key, and has
 * not reset yet. While others spend it, the wait spreads this process's share over the window. Zero when requests are left or nothing is known (the first request, or a window
 * that has reset: the service tells on the next answer).
 */
export function pacingWaitMs(state: PacingState, nowMs: number): number {
	if (!knowsCurrentWindow(state, nowMs)) return 0;
	if (state.remaining! <= 0 || (state.own ?? 0) >= shareOf(state, nowMs)) {
		return state.resetAtMs! - nowMs + RESET_MARGIN_MS;
	}
	return Math.max(0, Math.min(state.nextAtMs ?? 0, state.resetAtMs!) - nowMs);
}

/**
 * What the current window held, for the next one to go by: own requests that went through, and
 * the others' requests. A window seen used up held all the others' that this process's own left
 * room for, also those sent after its last answer.
 */
function spendingOf(state: PacingState): WindowSpending & { capacity?: number } {
	const own = Math.max(0, (state.own ?? 0) - (state.refused ?? 0));
	const seen = state.others ?? 0;
	const capacity = capacityOf(state);
	let others = seen;
	if (state.usedUp) others = Math.max(seen, capacity - own);
	else if (state.held) {
		// This process stopped at its share: the others' last requests came after its last answer.
		const expected = othersExpected(state.last, seen, capacity);
		if (expected - seen <= UNSEEN_TAIL) others = expected;
	}
	return { own, others, capacity };
}

/**
 * The current window is over: what it held becomes the last window's, unless `forget` (the
 * service changed its window) or a whole window passed since without a request from here.
 */
function endWindow(state: PacingState, nowMs: number, forget = false): void {
	const idle =
		state.resetAtMs === undefined ||
		(state.windowMs !== undefined && nowMs >= state.resetAtMs + state.windowMs);
	state.last = forget || idle ? undefined : spendingOf(state);
	state.endedAtMs = forget ? undefined : state.resetAtMs;
	if (forget) state.windowMs = undefined;
	state.window = (state.window ?? 0) + 1;
	state.own = 0;
	state.straddling = state.inFlight;
	state.others = 0;
	state.refused = 0;
	state.usedUp = false;
	state.held = false;
	state.nextAtMs = undefined;
	state.capacity = undefined;
	state.remaining = undefined;
	state.resetAtMs = undefined;
}

/**
 * Counts a request before it is sent, so that requests sent meanwhile see the window as this one
 * leaves it. Call it right after `pacingWaitMs` gave 0, with nothing awaited in between; a request
 * sent without the wait (one beyond the budget is left to the service's 429) takes a slot too.
 */
export function takeSlot(state: PacingState, nowMs: number): Slot {
	// The counts of a window that has reset say nothing about the new one.
	if (state.resetAtMs !== undefined && state.resetAtMs <= nowMs) endWindow(state, nowMs);
	state.inFlight++;
	state.own = (state.own ?? 0) + 1;
	const slot: Slot = { request: ++state.taken, window: state.window ?? 0, own: state.own };
	if (!knowsCurrentWindow(state, nowMs)) return slot;
	const hadRoom = state.remaining! > 0;
	state.remaining = Math.max(0, state.remaining! - 1);
	const toTake = shareOf(state, nowMs) - state.own;
	if (toTake <= 0) state.held = true;
	// Others share the window: this process's share spread over what is left of it, so that
	// everybody's requests, and answers, run to its end rather than race at its start.
	state.nextAtMs =
		toTake > 0 && Number.isFinite(toTake)
			? nowMs + (state.resetAtMs! - nowMs) / (toTake + 1)
			: undefined;
	return hadRoom ? { ...slot, roomLeft: state.remaining } : slot;
}

/**
 * What an answer in the current window shows of the others: the service counted `capacity -
 * reported` requests, of which this process had sent at most `slot.own` by then.
 */
function learnOthers(state: PacingState, slot: Slot, answer: PacingAnswer, reported: number): void {
	state.capacity = Math.max(state.capacity ?? 0, reported + 1);
	if (slot.window !== (state.window ?? 0)) return;
	if (answer.status === 429) state.refused = (state.refused ?? 0) + 1;
	if (reported <= 0) state.usedUp = true;
	// Own requests sent after this one may have overtaken it: counting them all gives what the
	// others surely spent, counting none what they most likely spent. The likely count is kept
	// once others are sure to be there.
	const counted = capacityOf(state) - reported - (state.straddling ?? 0);
	const surely = counted - (state.own ?? 0);
	const likely = counted - slot.own;
	const there = surely > 0 || (state.others ?? 0) > 0 || (state.last?.others ?? 0) > 0;
	if (there && likely > (state.others ?? 0)) state.others = likely;
}

/**
 * Frees the slot of a request once it was answered or failed, and learns from the answer's
 * headers. Within one window the lowest count wins: an answer that arrives after later ones
 * reports more than is left, and others may have used some. Another reset opens a new window:
 * its count, less the requests still on their way, which it may not include. An answer changes
 * nothing when its window is over, or when its reset is older than the known one and its request
 * was sent before the one that told about that window (a late answer; sent after it, an older
 * reset means the service changed its window).
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
	// A 429 without counts where this process knew of room: others spent what it counted on.
	if (answer.status === 429 && reported === undefined && slot.roomLeft !== undefined) {
		if (slot.window === (state.window ?? 0)) state.others = (state.others ?? 0) + slot.roomLeft + 1;
	}
	if (reported === undefined || resetAtMs === undefined || resetAtMs <= nowMs) return;

	if (knowsCurrentWindow(state, nowMs)) {
		const knownResetAtMs = state.resetAtMs!;
		if (Math.abs(resetAtMs - knownResetAtMs) < SAME_WINDOW_MS) {
			// Own requests sent after this one may not be counted yet: they will be.
			const later = slot.window === (state.window ?? 0) ? (state.own ?? 0) - slot.own : 0;
			state.remaining = Math.max(0, Math.min(state.remaining!, reported - later));
			learnOthers(state, slot, answer, reported);
			return;
		}
		if (resetAtMs < knownResetAtMs && slot.request < state.windowFrom) return;
		// The service moved on before this clock did; an older reset means it changed its window.
		endWindow(state, nowMs, resetAtMs < knownResetAtMs);
	}
	if (state.endedAtMs !== undefined && resetAtMs > state.endedAtMs + SAME_WINDOW_MS / 2) {
		state.windowMs = resetAtMs - state.endedAtMs;
	}
	state.remaining = Math.max(0, reported - state.inFlight);
	state.resetAtMs = resetAtMs;
	state.windowFrom = slot.request;
	learnOthers(state, slot, answer, reported);
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
