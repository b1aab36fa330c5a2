import type { CursorFilters } from '../cursor';
import { positionOf, type OrganizationData, type SortedCollection, type Sortable } from '../store';
import { parseLimit } from '../validation';
import { ok, route, type Route, type RouteContext } from './route';

export interface ListSpec<T extends Sortable> {
	resource: 'leads' | 'conversations' | 'agents';
	collection: SortedCollection<T>;
	/** Reads and validates the filters of a first request (no cursor). */
	parseFilters(query: URLSearchParams): CursorFilters;
	/** Predicate of the non-date filters; undefined when there are none (all match). */
	matcher(filters: CursorFilters): ((item: T) => boolean) | undefined;
	/** Inclusive created_ms bounds implied by the filters. */
	createdRange?(filters: CursorFilters): { from?: number; to?: number };
	withTotal: boolean;
	view(item: T): unknown;
}

/**
 * Shared list logic. A cursor carries the filters of the first request, so it alone continues
 * the same query; filters sent together with a cursor are ignored (the cursor's win).
 */
export function listPage<T extends Sortable>(context: RouteContext, spec: ListSpec<T>) {
	const { core, org, query } = context;
	const limit = parseLimit(query.get('limit'));
	const rawCursor = query.get('cursor');
	let filters: CursorFilters;
	let after;
	if (rawCursor !== null) {
		const decoded = core.cursors.decode(rawCursor, spec.resource, org.id);
		filters = decoded.filters;
		after = decoded.after;
	} else {
		filters = spec.parseFilters(query);
	}
	const match = spec.matcher(filters);
	const range = spec.createdRange?.(filters) ?? {};
	const page = spec.collection.page({
		after,
		limit,
		match,
		createdFrom: range.from,
		createdTo: range.to,
	});
	const last = page.items[page.items.length - 1];
	const nextCursor =
		page.hasMore && last
			? core.cursors.encode(spec.resource, org.id, filters, positionOf(last))
			: null;
	const pagination: Record<string, unknown> = {};
	if (spec.withTotal) {
		pagination.total = spec.collection.count(signature(filters), match, range.from, range.to);
	}
	pagination.limit = limit;
	pagination.has_more = page.hasMore;
	pagination.next_cursor = nextCursor;
	return { data: page.items.map((item) => spec.view(item)), pagination };
}

/** GET /{resource}: one page of the caller's organization's records. */
export function listRoute<T extends Sortable>(
	spec: Omit<ListSpec<T>, 'collection'> & {
		collectionOf(org: OrganizationData): SortedCollection<T>;
	},
): Route {
	return route('GET', `/${spec.resource}`, (context) =>
		ok(listPage(context, { ...spec, collection: spec.collectionOf(context.org) })),
	);
}

function signature(filters: CursorFilters): string {
	return JSON.stringify(
		Object.keys(filters)
			.sort()
			.map((key) => [key, filters[key]]),
	);
}
