// Reads a list for a poll: every page, or nothing usable when the poll's time budget would run out
// first. The order of list records is not specified (docs/service-contract.md §4), so a partial read cannot
// move a position: the caller gets `complete: false` and keeps its position.

import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { PAGE_SIZE_MAX } from '../shared/constants';
import type { ApiContext } from '../shared/transport';
import { iterateListPages } from '../shared/transport';

/**
 * n8n 1.x has no poll budget: a poll there stops fetching after the time n8n 2.41 allows by
 * default, so two polls of one trigger never overlap for long.
 */
export const LEGACY_POLL_BUDGET_MS = 5 * 60_000;
/** A page is not requested unless this many times the slowest page so far still fits. */
const PAGE_TIME_SAFETY = 2;

/** The time this poll may take: n8n 2.41's `getPollBudgetMs()`, or the legacy default. */
export function pollBudgetMs(context: IPollFunctions): number {
	const read = (context as { getPollBudgetMs?: unknown }).getPollBudgetMs;
	if (typeof read !== 'function') return LEGACY_POLL_BUDGET_MS;
	const budget = Number((read as () => unknown).call(context));
	return Number.isFinite(budget) && budget > 0 ? budget : LEGACY_POLL_BUDGET_MS;
}

export interface ListRead {
	records: IDataObject[];
	complete: boolean;
}

/**
 * Every record of `path` with `query`, page by page, until `has_more` is false or the next page
 * might not arrive before `deadline` (epoch ms). A failing page throws (the transport's error,
 * which names the page): the caller then changes nothing.
 */
export async function readWholeList(
	context: IPollFunctions,
	path: string,
	query: IDataObject,
	deadline: number,
): Promise<ListRead> {
	const records: IDataObject[] = [];
	let slowestPageMs = 0;
	let pageStartedAt = Date.now();
	// The transport takes the execution-side contexts; a poll context offers the same
	// credential and request helpers it uses.
	const pages = iterateListPages.call(context as unknown as ApiContext, path, query, {
		returnAll: true,
	}) as AsyncGenerator<IDataObject[]>;
	for (;;) {
		const next = await pages.next();
		if (next.done) return { records, complete: true };
		for (const record of next.value) records.push(record);
		const now = Date.now();
		slowestPageMs = Math.max(slowestPageMs, now - pageStartedAt);
		pageStartedAt = now;
		// A short page is the last one: asking the generator for more costs no request.
		const mayHaveMore = next.value.length >= PAGE_SIZE_MAX;
		if (mayHaveMore && now + PAGE_TIME_SAFETY * slowestPageMs > deadline) {
			await pages.return(undefined);
			return { records, complete: false };
		}
	}
}
