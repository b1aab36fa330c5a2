// What the polling trigger keeps between polls (the node's static data) and how a complete read
// moves it. Pure functions: no n8n context, no HTTP.
//
// New leads: `mark` is the latest `created_at` seen and `atMark` the IDs created at exactly that
// time. GET /leads `created_after` is "on or after", so the leads at the mark come back on every
// poll; `atMark` tells them apart from a lead created later in the same millisecond.
// Status events: per watched status, the IDs of the records in it at the last poll. A record in
// the list now and not in that set has entered the status since. The set is bounded by the
// list as it is now, never by history.

import type { IDataObject } from 'n8n-workflow';

import type { LeadMark } from '../shared/leadMark';
import type { ChangesPosition } from './changes';
import { MarkTracker, seenBefore } from '../shared/leadMark';

export const POSITION_VERSION = 1;

export interface NewLeadsPosition {
	/** `created_at` of the latest lead seen, as the service wrote it. */
	mark: string;
	/** IDs of the leads created at exactly `mark`. */
	atMark: string[];
	/**
	 * Set after a poll whose read did not fit its time budget: the next read covers only
	 * `created_after` mark to mark + window ms; the window halves after each read that does not
	 * fit and doubles after each that does.
	 */
	window?: number;
	/**
	 * The latest `created_at` a read has seen while windows are used: the service's clock has
	 * passed it, so a window ending before it is closed for good and the mark may move to its end.
	 */
	horizon?: string;
}

export type StatusSets = Record<string, string[]>;

/** Where one (lead, advisor) wait stands. */
export const WAIT_STATE = {
	/** The wait runs, or ended and the contact check is still to be made. */
	waiting: 0,
	/** Nothing more to do for this advisor: contacted, or already assigned at activation. */
	done: 1,
	/** Announced as not contacted. */
	missed: 2,
	/** Announced as contacted (Assigned Lead Contacted). */
	contacted: 3,
} as const;
export type WaitState = (typeof WAIT_STATE)[keyof typeof WAIT_STATE];

/**
 * Assigned Lead Not Contacted and Assigned Lead Contacted, per lead in `assigned`, one compact
 * array: the advisor, the wait's start (epoch ms on the service's clock: the lead's updated_at
 * when first seen with that advisor), where the wait stands, then the earlier advisors already
 * announced for the lead (as having missed it, or as having reached it), oldest first. About 60
 * bytes for a lead nobody was announced for yet (docs/performance.md).
 */
export type WaitEntry = [advisor: string, startMs: number, state: WaitState, ...missedBy: string[]];

export interface NotContactedPosition {
	/** Lead ID to its wait: the leads in `assigned` at the last complete read, and those in `absent`. */
	waits: Record<string, WaitEntry>;
	/**
	 * Leads kept although missing from the latest reads (absentLeads.ts): when first missed
	 * (service clock, ms) and in how many complete reads in a row.
	 */
	absent?: Record<string, [sinceMs: number, reads: number]>;
	/**
	 * Assigned Lead Contacted: per waiting lead, the `last_activity_at` (ms) up to which its
	 * conversations were checked; only a lead whose activity moved past it is checked again.
	 */
	seen?: Record<string, number>;
}

export interface StoredPosition {
	version: number;
	/** What the position is about; another value (the node's settings changed) means "baseline". */
	watch: string;
	newLeads?: NewLeadsPosition;
	inStatus?: StatusSets;
	/** New or Updated Lead (changes.ts). */
	changes?: ChangesPosition;
	/** Assigned Lead Not Contacted (notContacted.ts). */
	notContacted?: NotContactedPosition;
}

/** The stored position when it is about the same thing as today's settings. */
export function readPosition(staticData: IDataObject, watch: string): StoredPosition | undefined {
	const stored = staticData as Partial<StoredPosition>;
	if (stored.version !== POSITION_VERSION || stored.watch !== watch) return undefined;
	return stored as StoredPosition;
}

/**
 * Writes the position into the static data object n8n handed the poll. The object itself is
 * changed (not replaced): it is n8n's live static data, or, with 2.41's durable poll cursors on,
 * the copy n8n stages and stores with the execution.
 */
export function writePosition(staticData: IDataObject, position: StoredPosition): void {
	for (const key of Object.keys(staticData)) delete staticData[key];
	Object.assign(staticData, JSON.parse(JSON.stringify(position)) as IDataObject);
}

function timeOf(record: IDataObject): number {
	return typeof record.created_at === 'string' ? Date.parse(record.created_at) : Number.NaN;
}

function idOf(record: IDataObject): string | undefined {
	return typeof record.id === 'string' && record.id !== '' ? record.id : undefined;
}

/** Records with an ID, each once (a page boundary may shift while a list is read). */
export function uniqueById(records: IDataObject[]): IDataObject[] {
	const byId = new Map<string, IDataObject>();
	for (const record of records) {
		const id = idOf(record);
		if (id !== undefined && !byId.has(id)) byId.set(id, record);
	}
	return [...byId.values()];
}

/**
 * The leads of a complete `created_after = mark` read that were not seen before, oldest first,
 * and the position after them (the same mark rules as Lead → Get Many's "only new" option).
 */
export function advanceNewLeads(
	position: NewLeadsPosition,
	read: IDataObject[],
): { fresh: IDataObject[]; position: NewLeadsPosition } {
	const mark: LeadMark = { createdAt: position.mark, idsAtMark: position.atMark };
	const fresh = uniqueById(read).filter((lead) => !seenBefore(lead, mark));
	const tracker = new MarkTracker();
	for (const lead of fresh) tracker.observe(lead);
	fresh.sort((a, b) => timeOf(a) - timeOf(b));
	const next = tracker.next(mark) ?? mark;
	return { fresh, position: { ...position, mark: next.createdAt, atMark: next.idsAtMark } };
}

/** The starting position from the leads created since `since`: nothing before it is new. */
export function baselineNewLeads(since: string, read: IDataObject[]): NewLeadsPosition {
	return advanceNewLeads({ mark: since, atMark: [] }, read).position;
}

/** Records of the list now whose ID was not in the set at the last poll. */
export function enteredSince(previous: string[], now: IDataObject[]): IDataObject[] {
	const before = new Set(previous);
	return uniqueById(now).filter((record) => !before.has(idOf(record)!));
}

export function idsOf(records: IDataObject[]): string[] {
	return uniqueById(records).map((record) => idOf(record)!);
}
