// Planning of the cursor loop, free of n8n: how big the next page is, what to send, when to stop.
//
// The specification: repeat the request with `cursor` set to `next_cursor` until `has_more` is
// false; filters live in the cursor, so after the first request only `cursor` (and `limit`) are
// sent. Pages are as large as allowed (100) so that N records cost ⌈N/100⌉ requests, and with a
// limit the last page asks only for what is still missing.

import type { IDataObject } from 'n8n-workflow';

import { PAGE_SIZE_MAX } from '../constants';
import { isRecord } from '../isRecord';

export interface ListPlan {
	returnAll: boolean;
	/** Records wanted when not returning all. */
	limit?: number;
}

export interface ListPage<T> {
	records: T[];
	hasMore: boolean;
	nextCursor: string | undefined;
	total?: number;
}

/** Size of the next page, or 0 when nothing more is wanted. */
export function nextPageSize(plan: ListPlan, recordsRead: number): number {
	if (plan.returnAll) return PAGE_SIZE_MAX;
	const missing = (plan.limit ?? 0) - recordsRead;
	return Math.max(0, Math.min(PAGE_SIZE_MAX, missing));
}

/** Query of the next request: filters on the first page, the cursor alone afterwards. */
export function pageQuery(
	filters: IDataObject,
	cursor: string | undefined,
	size: number,
): IDataObject {
	if (cursor === undefined) return { ...filters, limit: size };
	return { cursor, limit: size };
}

/** How many records of a page to keep: a page is never longer than what was asked for. */
export function recordsToKeep(plan: ListPlan, recordsRead: number, pageLength: number): number {
	if (plan.returnAll) return pageLength;
	return Math.max(0, Math.min(pageLength, (plan.limit ?? 0) - recordsRead));
}

/**
 * Reads `{ data, pagination }`. Returns undefined when the body is not a list response at all.
 * Without a pagination object, or with `has_more` true but no cursor, there is nothing to follow.
 */
export function readListPage<T>(body: unknown): ListPage<T> | undefined {
	if (!isRecord(body) || !Array.isArray(body.data)) return undefined;
	const pagination = isRecord(body.pagination) ? body.pagination : {};
	const cursor = pagination.next_cursor;
	const nextCursor = typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
	return {
		records: body.data as T[],
		hasMore: pagination.has_more === true && nextCursor !== undefined,
		nextCursor,
		total: typeof pagination.total === 'number' ? pagination.total : undefined,
	};
}

export type StopReason = 'complete' | 'limitReached' | undefined;

/** Whether to request another page after one was read. */
export function stopAfterPage(
	plan: ListPlan,
	recordsRead: number,
	page: ListPage<unknown>,
): StopReason {
	if (!page.hasMore) return 'complete';
	if (!plan.returnAll && recordsRead >= (plan.limit ?? 0)) return 'limitReached';
	return undefined;
}
