// "Only new since last run" for Lead → Get Many: a high-water mark of `created_at`, kept in the
// node's static data, so that a scheduled sync returns each lead once.
//
// The service filters `created_after` as "on or after", so the leads created exactly at the mark
// come back on the next run; their IDs are kept to drop them. The order of the list is not
// guaranteed by the specification, so the mark is the maximum seen, not the first record's.

import type { IDataObject } from 'n8n-workflow';

import type { LeadMark } from '../../shared/leadMark';

/** Static data key holding one mark per query. */
export const MARKS_KEY = 'newLeadsSinceLastRun';

/**
 * One mark per set of filters: changing the filters starts a new sync instead of hiding the
 * leads the old filters did not match.
 */
export function querySignature(filters: IDataObject): string {
	const entries = Object.keys(filters)
		.filter((name) => filters[name] !== undefined && filters[name] !== '')
		.sort()
		.map((name) => `${name}=${String(filters[name])}`);
	return entries.length > 0 ? entries.join('&') : 'all leads';
}

export function readMark(staticData: IDataObject, signature: string): LeadMark | undefined {
	const marks = staticData[MARKS_KEY] as Record<string, LeadMark> | undefined;
	const mark = marks?.[signature];
	if (!mark || typeof mark.createdAt !== 'string' || Number.isNaN(Date.parse(mark.createdAt))) {
		return undefined;
	}
	return {
		createdAt: mark.createdAt,
		idsAtMark: Array.isArray(mark.idsAtMark) ? mark.idsAtMark : [],
	};
}

/** Replaces the whole key, so n8n sees the static data as changed. */
export function writeMark(staticData: IDataObject, signature: string, mark: LeadMark): void {
	const marks = { ...((staticData[MARKS_KEY] as IDataObject | undefined) ?? {}) };
	marks[signature] = { createdAt: mark.createdAt, idsAtMark: mark.idsAtMark };
	staticData[MARKS_KEY] = marks;
}

/** The `created_after` to send: the later of the user's filter and the mark. */
export function createdAfterFor(userCreatedAfter: string | undefined, mark: LeadMark | undefined) {
	if (!mark) return userCreatedAfter;
	if (userCreatedAfter === undefined) return mark.createdAt;
	return Date.parse(userCreatedAfter) > Date.parse(mark.createdAt)
		? userCreatedAfter
		: mark.createdAt;
}
