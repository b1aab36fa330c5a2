// How much of a rate-limit window this process leaves to the others spending the same key, free
// of n8n and of clocks. "Others" are everything the service counted that this process did not
// send: other workers of n8n's queue mode (which pace themselves the same way) and other programs.
//
// Each process expects the others to spend in this window what they spent in the last one, plus
// their part of what the last window left unused (or less by their part of what it overran).
// When every spender does the same, their parts add up to the whole window: a window that was
// used up is shared again the same way, and one that was not is filled, without a race for its
// last requests. Nothing is left to others when none were seen in the last window or this one.

/** What one process saw of one window: its own requests, and the others' as answers showed. */
export interface WindowSpending {
	own: number;
	others: number;
}

/** More spenders than this change a share by less than one request in a window of 16. */
const MOST_SPENDERS = 16;

/**
 * How many spenders share the key, counting this process: the others are taken to spend as this
 * one does. Two at least, since others were seen.
 */
export function spenders(last: WindowSpending): number {
	const estimate = 1 + last.others / Math.max(1, last.own);
	return Math.min(MOST_SPENDERS, Math.max(2, estimate));
}

/**
 * This process's part of what the last window left unused (or of what it overran): one spender's,
 * rounded down, since what answers showed of the others may miss their last requests. A window
 * that left two or more unused gives at least one more, so that a process among many, or beside
 * a large spender, still grows into what is left.
 */
export function partOfSlack(slack: number, spenders: number): number {
	const part = Math.floor(slack / spenders);
	return part === 0 && slack >= 2 ? 1 : part;
}

/**
 * Requests of a window of `capacity` that this process expects the others to spend in all: what
 * they spent in the last window and their part of its slack, never less than they already spent
 * in this one (`othersNow`). Zero while none were seen.
 */
export function othersExpected(
	last: WindowSpending | undefined,
	othersNow: number,
	capacity: number,
): number {
	const before = last ?? { own: 0, others: 0 };
	if (before.others <= 0 && othersNow <= 0) return 0;
	// A process that spent nothing in the last window claims half of what the others left,
	// however many they are: its first shared window may leave some unused, and settles its share.
	const slack = capacity - before.own - before.others;
	const mine =
		before.own > 0
			? Math.max(1, before.own + partOfSlack(slack, spenders(before)))
			: Math.floor((capacity - othersNow) / 2);
	return Math.max(othersNow, capacity - mine);
}

/**
 * Requests of the current window this process may take in all: what the others are not expected
 * to spend. Unbounded while no others were seen. When the last window was used up this is what
 * this process took in it, plus its part of the slack, whatever the capacity is taken to be: the
 * capacity can only be inferred, and a process that never answers first in a window sees less.
 * The others spread their share over the window as this process does: with `leftOfWindow` (0 to
 * 1) of it to go, they are not expected to spend more than that part of their share any more, so
 * that what others who stopped leave is taken as the window runs out.
 */
export function myShare(
	last: WindowSpending | undefined,
	othersNow: number,
	capacity: number,
	leftOfWindow = 1,
): number {
	if ((last?.others ?? 0) <= 0 && othersNow <= 0) return Infinity;
	const expected = othersExpected(last, othersNow, capacity);
	const stillToSpend = Math.min(expected - othersNow, Math.ceil(expected * leftOfWindow) + 1);
	return capacity - othersNow - Math.max(0, stillToSpend);
}
