// A lead missing from one read of `assigned` is not taken at once to have left it: a page of the
// list may skip a row while leads change (the order of list records is not specified), and a lead
// forgotten too early would lose who let it wait, so it could go back to an advisor who missed it.
// Its wait is kept until it has been missing from ABSENT_READS complete reads in a row AND for
// ABSENT_MS on the service's clock; a lead that comes back before then keeps its history.

import type { NotContactedPosition } from './position';

/** Complete reads in a row a lead must be missing from before it is forgotten. */
export const ABSENT_READS = 3;
/** And for at least this long (service clock). */
export const ABSENT_MS = 60 * 60_000;

/**
 * The position after a read, with the waits of the leads missing from it kept within the bound.
 * `next` is noteAssigned's position for the leads of the read; `nowMs` the service's time.
 */
export function keepAbsent(
	stored: NotContactedPosition | undefined,
	next: NotContactedPosition,
	nowMs: number,
): NotContactedPosition {
	const absent: Record<string, [number, number]> = {};
	for (const [id, entry] of Object.entries(stored?.waits ?? {})) {
		if (next.waits[id]) continue;
		const [sinceMs, reads] = stored?.absent?.[id] ?? [nowMs, 0];
		const missing = reads + 1;
		if (missing >= ABSENT_READS && nowMs - sinceMs >= ABSENT_MS) continue;
		next.waits[id] = entry;
		absent[id] = [sinceMs, missing];
	}
	return Object.keys(absent).length > 0 ? { ...next, absent } : next;
}

/** Whether the lead is in the latest read (not only kept as absent). */
export function isPresent(position: NotContactedPosition, id: string): boolean {
	return position.waits[id] !== undefined && position.absent?.[id] === undefined;
}
