// The New or Updated Lead event's position, and how the leads of one pass move it. Pure
// functions: no n8n context, no HTTP. The method is in docs/spreadsheet-sync.md.
//
// A pass reads every lead (GET /leads, page by page). The position is a mark on the SERVICE's
// clock plus the leads already announced at or after it, each as "id updated_at". A lead read
// is announced when its updated_at is at or after the mark and that pair is not among them.
// When a pass ends, the mark moves to the moment the pass STARTED (not to the largest
// updated_at seen): a lead changed after its page was read carries an updated_at after that
// start, so the next pass announces it even when leads read later carry larger ones. Only pairs
// at or after the mark are kept, so the position is bounded by the changes made during about
// one pass and one poll interval, never by the number of leads.

import type { IDataObject } from 'n8n-workflow';

/** A pass that did not fit one poll's time budget: the next poll continues it. */
export interface PassInProgress {
	/** The service's time when the pass started: the mark once it is complete. */
	start: string;
	/** `next_cursor` of the last page read. */
	cursor: string;
}

export interface ChangesPosition {
	/** Leads updated before this time (service clock) were announced by an earlier pass. */
	mark: string;
	/** "id updated_at" of the leads announced with updated_at at or after `kept from`. */
	announced: string[];
	pass?: PassInProgress;
	/**
	 * Set while the first pass fills an empty sheet (Include Existing Leads): every lead is
	 * announced, whatever its updated_at; only pairs at or after the pass's start are kept.
	 */
	filling?: true;
}

/** Before any lead: the mark of a fill, which announces every lead once. */
export const BEGINNING = new Date(0).toISOString();

export function pairOf(lead: IDataObject): string | undefined {
	const { id, updated_at: updatedAt } = lead;
	if (typeof id !== 'string' || id === '' || typeof updatedAt !== 'string') return undefined;
	return `${id} ${updatedAt}`;
}

function timeOfPair(pair: string): number {
	return Date.parse(pair.slice(pair.indexOf(' ') + 1));
}

/** Pairs older than this need not be kept: no pass will announce a lead updated before it. */
export function keptFrom(position: ChangesPosition): number {
	return Date.parse(position.filling && position.pass ? position.pass.start : position.mark);
}

/**
 * The leads of one page to announce, in page order, and the position with them noted. A lead
 * without a readable updated_at is announced only by a fill: there is no change to compare.
 */
export function announce(
	position: ChangesPosition,
	page: IDataObject[],
	announcedThisPoll: Set<string>,
): { fresh: IDataObject[]; position: ChangesPosition } {
	const markMs = position.filling ? -Infinity : Date.parse(position.mark);
	const keepFrom = keptFrom(position);
	const known = new Set(position.announced);
	const kept = [...position.announced];
	const fresh: IDataObject[] = [];
	for (const lead of page) {
		const pair = pairOf(lead);
		if (pair === undefined || known.has(pair) || announcedThisPoll.has(pair)) continue;
		const updatedMs = timeOfPair(pair);
		if (!(updatedMs >= markMs) && !(position.filling && Number.isNaN(updatedMs))) continue;
		fresh.push(lead);
		announcedThisPoll.add(pair);
		if (updatedMs >= keepFrom) {
			kept.push(pair);
			known.add(pair);
		}
	}
	return { fresh, position: { ...position, announced: kept } };
}

/**
 * The leads of the activation poll's page, noted as the baseline: nothing is announced, but the
 * pairs at or after the mark are kept, so the next pass does not announce them as changes.
 */
export function noteBaseline(position: ChangesPosition, page: IDataObject[]): ChangesPosition {
	return announce(position, page, new Set()).position;
}

/** A pass read its last page: the mark moves to the pass's start; older pairs are dropped. */
export function closePass(position: ChangesPosition, start: string): ChangesPosition {
	const startMs = Date.parse(start);
	const markMs = position.filling ? -Infinity : Date.parse(position.mark);
	// Never back: leads between a later mark and this start were announced already.
	const mark = startMs >= markMs ? start : position.mark;
	const from = Date.parse(mark);
	return { mark, announced: position.announced.filter((pair) => timeOfPair(pair) >= from) };
}
