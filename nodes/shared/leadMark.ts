// A high-water mark of `created_at` with the IDs created at exactly that instant: the service
// filters `created_after` as "on or after", so the leads at the mark come back on the next read
// and their IDs tell them apart from a lead created later in the same millisecond. Used by
// Lead → Get Many's "only new" option and the polling trigger's New Lead event.

import type { IDataObject } from 'n8n-workflow';

export interface LeadMark {
	/** `created_at` of the newest lead returned so far, exactly as the service wrote it. */
	createdAt: string;
	/** IDs of the returned leads created at exactly that instant. */
	idsAtMark: string[];
}

/** Whether a lead was already returned by an earlier run. */
export function seenBefore(lead: IDataObject, mark: LeadMark | undefined): boolean {
	if (!mark) return false;
	const created = Date.parse(String(lead.created_at));
	const markMs = Date.parse(mark.createdAt);
	if (Number.isNaN(created)) return false;
	if (created < markMs) return true;
	return created === markMs && mark.idsAtMark.includes(String(lead.id));
}

/** Follows the newest `created_at` among the leads returned by this run. */
export class MarkTracker {
	private newestMs = Number.NEGATIVE_INFINITY;
	private newest: string | undefined;
	private ids = new Set<string>();

	observe(lead: IDataObject): void {
		const createdAt = String(lead.created_at);
		const ms = Date.parse(createdAt);
		if (Number.isNaN(ms)) return;
		if (ms > this.newestMs) {
			this.newestMs = ms;
			this.newest = createdAt;
			this.ids = new Set();
		}
		if (ms === this.newestMs) this.ids.add(String(lead.id));
	}

	/** The mark after this run: unchanged when nothing newer came back. */
	next(previous: LeadMark | undefined): LeadMark | undefined {
		if (this.newest === undefined) return previous;
		if (previous && Date.parse(previous.createdAt) === this.newestMs) {
			return {
				createdAt: previous.createdAt,
				idsAtMark: [...new Set([...previous.idsAtMark, ...this.ids])],
			};
		}
		if (previous && Date.parse(previous.createdAt) > this.newestMs) return previous;
		return { createdAt: this.newest, idsAtMark: [...this.ids] };
	}
}
