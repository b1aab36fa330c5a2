import {
	nextPageSize,
	pageQuery,
	readListPage,
	recordsToKeep,
	stopAfterPage,
	type ListPlan,
} from '../../../nodes/shared/transport/pagination';

/** Simulates the cursor loop against a list of `total` records and returns the page sizes asked. */
function plannedPages(plan: ListPlan, total: number): number[] {
	const asked: number[] = [];
	let read = 0;
	let position = 0;
	for (;;) {
		const size = nextPageSize(plan, read);
		if (size === 0) break;
		asked.push(size);
		const records = Array.from(
			{ length: Math.min(size, total - position) },
			(_, i) => position + i,
		);
		position += records.length;
		read += recordsToKeep(plan, read, records.length);
		const page = {
			records,
			hasMore: position < total,
			nextCursor: position < total ? 'c' : undefined,
		};
		if (stopAfterPage(plan, read, page)) break;
	}
	return asked;
}

describe('page planning', () => {
	test.each([
		[0, [100]],
		[1, [100]],
		[100, [100]],
		[101, [100, 100]],
		[700, [100, 100, 100, 100, 100, 100, 100]],
	])('Return All over %d records asks for ⌈N/100⌉ full pages', (total, expected) => {
		expect(plannedPages({ returnAll: true }, total)).toEqual(expected);
	});

	test.each([
		[1, 1000, [1]],
		[50, 1000, [50]],
		[100, 1000, [100]],
		[101, 1000, [100, 1]],
		[250, 1000, [100, 100, 50]],
		[250, 120, [100, 100]],
	])('Limit %d over %d records asks for %p', (limit, total, expected) => {
		expect(plannedPages({ returnAll: false, limit }, total)).toEqual(expected);
	});

	test('the first page carries the filters, later pages only cursor and limit', () => {
		expect(pageQuery({ status: 'new', score_min: 50 }, undefined, 100)).toEqual({
			status: 'new',
			score_min: 50,
			limit: 100,
		});
		expect(pageQuery({ status: 'new', score_min: 50 }, 'abc', 100)).toEqual({
			cursor: 'abc',
			limit: 100,
		});
	});

	test('a page longer than asked is cut to the limit', () => {
		expect(recordsToKeep({ returnAll: false, limit: 10 }, 5, 100)).toBe(5);
		expect(recordsToKeep({ returnAll: true }, 5, 100)).toBe(100);
	});
});

describe('reading a list response', () => {
	test('reads data and pagination', () => {
		expect(
			readListPage({
				data: [{ id: 1 }],
				pagination: { has_more: true, next_cursor: 'n', total: 9, limit: 1 },
			}),
		).toEqual({ records: [{ id: 1 }], hasMore: true, nextCursor: 'n', total: 9 });
	});
	test('has_more without a cursor cannot be followed and ends the list', () => {
		expect(
			readListPage({ data: [], pagination: { has_more: true, next_cursor: null } })?.hasMore,
		).toBe(false);
	});
	test('a missing pagination object ends the list', () => {
		expect(readListPage({ data: [{ id: 1 }] })).toEqual({
			records: [{ id: 1 }],
			hasMore: false,
			nextCursor: undefined,
			total: undefined,
		});
	});
	test.each([[undefined], ['text'], [{ items: [] }], [[1, 2]]])(
		'%p is not a list response',
		(body) => {
			expect(readListPage(body)).toBeUndefined();
		},
	);
});
