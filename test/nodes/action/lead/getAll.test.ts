import type { INodeParameters } from 'n8n-workflow';

import type { StoredLead } from '../../../../sandbox';
import { alphaLeads, apiRequests, jsonOf, pages, useSandbox, operationRunner } from '../helpers';

const SEED_LEADS = 1200;
const ctx = useSandbox({ leads: SEED_LEADS }, { resetEach: false });
const runOperation = operationRunner(ctx, 'lead', 'getAll');

type FilterName =
	| 'status'
	| 'intent'
	| 'channel'
	| 'scoreMin'
	| 'scoreMax'
	| 'createdAfter'
	| 'createdBefore';
const FILTER_NAMES: FilterName[] = [
	'status',
	'intent',
	'channel',
	'scoreMin',
	'scoreMax',
	'createdAfter',
	'createdBefore',
];
const QUERY_NAMES: Record<FilterName, string> = {
	status: 'status',
	intent: 'intent',
	channel: 'channel',
	scoreMin: 'score_min',
	scoreMax: 'score_max',
	createdAfter: 'created_after',
	createdBefore: 'created_before',
};

function mostCommon(values: string[]): string {
	const counts = new Map<string, number>();
	for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
	return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
}

/** Filter values that keep every combination non-trivial on this seed. */
function filterValues(leads: StoredLead[]): Record<FilterName, string | number> {
	const created = leads.map((lead) => lead.created_at).sort();
	return {
		status: mostCommon(leads.map((lead) => lead.status)),
		intent: mostCommon(leads.map((lead) => lead.intent)),
		channel: mostCommon(leads.filter((l) => l.channel !== 'api').map((lead) => lead.channel)),
		scoreMin: 10,
		scoreMax: 90,
		createdAfter: created[Math.floor(created.length * 0.1)],
		createdBefore: created[Math.floor(created.length * 0.9)],
	};
}

function matches(lead: StoredLead, filters: Partial<Record<FilterName, string | number>>): boolean {
	const created = Date.parse(lead.created_at);
	return (
		(filters.status === undefined || lead.status === filters.status) &&
		(filters.intent === undefined || lead.intent === filters.intent) &&
		(filters.channel === undefined || lead.channel === filters.channel) &&
		(filters.scoreMin === undefined || lead.score >= (filters.scoreMin as number)) &&
		(filters.scoreMax === undefined || lead.score <= (filters.scoreMax as number)) &&
		(filters.createdAfter === undefined || created >= Date.parse(filters.createdAfter as string)) &&
		(filters.createdBefore === undefined || created <= Date.parse(filters.createdBefore as string))
	);
}

const SUBSETS: FilterName[][] = Array.from({ length: 2 ** FILTER_NAMES.length }, (_, mask) =>
	FILTER_NAMES.filter((_name, bit) => mask & (2 ** bit)),
);

describe('Lead → Get Many, Return All', () => {
	test('the unfiltered list spans more than 5 pages on this seed', () => {
		expect(pages(alphaLeads(ctx.sandbox).length)).toBeGreaterThanOrEqual(5);
	});

	test.each(SUBSETS.map((subset) => [subset.join(' + ') || 'no filter', subset] as const))(
		'%s: every matching lead once, ⌈N/100⌉ requests, only the cursor after page 1',
		async (_name, subset) => {
			const leads = alphaLeads(ctx.sandbox);
			const values = filterValues(leads);
			const filters: INodeParameters = {};
			for (const name of subset) filters[name] = values[name];

			const result = await runOperation({ returnAll: true, filters });
			expect(result.error).toBeUndefined();

			const expected = leads.filter((lead) => matches(lead, filters)).map((lead) => lead.id);
			const returned = jsonOf(result).map((lead) => lead.id as string);
			expect(new Set(returned).size).toBe(returned.length);
			expect([...returned].sort()).toEqual([...expected].sort());

			const requests = apiRequests(ctx.sandbox, '/v1/leads');
			expect(requests).toHaveLength(pages(expected.length));
			const firstQuery: Record<string, string> = { limit: '100' };
			for (const name of subset) firstQuery[QUERY_NAMES[name]] = String(values[name]);
			expect(requests[0].query).toEqual(firstQuery);
			for (const later of requests.slice(1)) {
				expect(Object.keys(later.query).sort()).toEqual(['cursor', 'limit']);
				expect(later.query.limit).toBe('100');
			}
		},
	);
});

describe('Lead → Get Many, Limit', () => {
	test.each([
		[1, [1]],
		[50, [50]],
		[100, [100]],
		[101, [100, 1]],
		[250, [100, 100, 50]],
		[600, [100, 100, 100, 100, 100, 100]],
	])('Limit %d sends page sizes %p and returns exactly that many leads', async (limit, sizes) => {
		const result = await runOperation({ limit });
		expect(result.error).toBeUndefined();
		const leads = jsonOf(result);
		expect(leads).toHaveLength(limit);
		expect(new Set(leads.map((lead) => lead.id)).size).toBe(limit);
		expect(apiRequests(ctx.sandbox, '/v1/leads').map((r) => Number(r.query.limit))).toEqual(sizes);
	});

	test('a limit above the number of matches stops when the list ends', async () => {
		const qualified = alphaLeads(ctx.sandbox).filter((lead) => lead.status === 'qualified').length;
		const result = await runOperation({ limit: qualified + 500, filters: { status: 'qualified' } });
		expect(jsonOf(result)).toHaveLength(qualified);
		expect(apiRequests(ctx.sandbox, '/v1/leads')).toHaveLength(pages(qualified));
	});

	test('the default is 50 leads in one request', async () => {
		const result = await runOperation({});
		expect(jsonOf(result)).toHaveLength(50);
		expect(apiRequests(ctx.sandbox, '/v1/leads').map((r) => r.query.limit)).toEqual(['50']);
	});
});
