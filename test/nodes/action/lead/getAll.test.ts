import type { INodeParameters } from 'n8n-workflow';

import type { StoredLead } from '../../../../sandbox';
import { FLAT_LEAD_COLUMNS } from '../../../../nodes/LeadConversations/helpers/flatLead';
import { alphaLeads, apiRequests, jsonOf, pages, pairedOf, run, useSandbox } from '../helpers';
import { expectRefusedBeforeSending, refusals, withExpression } from '../refusals';

const SEED_LEADS = 1200;
const ctx = useSandbox({ leads: SEED_LEADS }, { resetEach: false });

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

			const result = await run(ctx.sandbox, {
				resource: 'lead',
				operation: 'getAll',
				returnAll: true,
				filters,
			});
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
		const result = await run(ctx.sandbox, { resource: 'lead', operation: 'getAll', limit });
		expect(result.error).toBeUndefined();
		const leads = jsonOf(result);
		expect(leads).toHaveLength(limit);
		expect(new Set(leads.map((lead) => lead.id)).size).toBe(limit);
		expect(apiRequests(ctx.sandbox, '/v1/leads').map((r) => Number(r.query.limit))).toEqual(sizes);
	});

	test('a limit above the number of matches stops when the list ends', async () => {
		const qualified = alphaLeads(ctx.sandbox).filter((lead) => lead.status === 'qualified').length;
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'getAll',
			limit: qualified + 500,
			filters: { status: 'qualified' },
		});
		expect(jsonOf(result)).toHaveLength(qualified);
		expect(apiRequests(ctx.sandbox, '/v1/leads')).toHaveLength(pages(qualified));
	});

	test('the default is 50 leads in one request', async () => {
		const result = await run(ctx.sandbox, { resource: 'lead', operation: 'getAll' });
		expect(jsonOf(result)).toHaveLength(50);
		expect(apiRequests(ctx.sandbox, '/v1/leads').map((r) => r.query.limit)).toEqual(['50']);
	});
});

describe('Lead → Get Many, output', () => {
	test('Raw returns each lead as the service sends it', async () => {
		const result = await run(ctx.sandbox, { resource: 'lead', operation: 'getAll', limit: 3 });
		const [first] = jsonOf(result);
		const stored = alphaLeads(ctx.sandbox).find((lead) => lead.id === first.id)!;
		const { notes: _notes, ...visible } = stored;
		expect(first).toEqual(visible);
	});

	test('Flat returns spreadsheet columns in a fixed order for every lead', async () => {
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'getAll',
			limit: 120,
			options: { output: 'flat' },
		});
		const rows = jsonOf(result);
		expect(rows).toHaveLength(120);
		for (const row of rows) expect(Object.keys(row)).toEqual([...FLAT_LEAD_COLUMNS]);
		const withoutEmail = rows.find((row) => row.email === null);
		expect(withoutEmail).toBeDefined();
	});

	test('every item is paired with the single input item', async () => {
		const result = await run(ctx.sandbox, { resource: 'lead', operation: 'getAll', limit: 130 });
		expect(new Set(pairedOf(result).map((p) => JSON.stringify(p)))).toEqual(
			new Set([JSON.stringify({ item: 0 })]),
		);
	});
});

describe('Lead → Get Many for several input items', () => {
	test('runs one query per item and pairs each lead with its item', async () => {
		const result = await run(
			ctx.sandbox,
			{
				resource: 'lead',
				operation: 'getAll',
				returnAll: true,
				filters: { status: '={{ $json.status }}' },
			},
			{ inputItems: [{ status: 'qualified' }, { status: 'lost' }, { status: 'qualified' }] },
		);
		expect(result.error).toBeUndefined();
		const leads = alphaLeads(ctx.sandbox);
		const counts = {
			qualified: leads.filter((l) => l.status === 'qualified').length,
			lost: leads.filter((l) => l.status === 'lost').length,
		};
		const output = result.output('Lead Conversations');
		expect(output).toHaveLength(2 * counts.qualified + counts.lost);
		const byItem = (index: number) =>
			output.filter((item) => (item.pairedItem as { item: number }).item === index);
		expect(byItem(0).every((item) => item.json.status === 'qualified')).toBe(true);
		expect(byItem(0)).toHaveLength(counts.qualified);
		expect(byItem(1).every((item) => item.json.status === 'lost')).toBe(true);
		expect(byItem(1)).toHaveLength(counts.lost);
		expect(byItem(2)).toHaveLength(counts.qualified);
		const firstPages = apiRequests(ctx.sandbox, '/v1/leads').filter((r) => !r.query.cursor);
		expect(firstPages.map((r) => r.query.status)).toEqual(['qualified', 'lost', 'qualified']);
		expect(apiRequests(ctx.sandbox, '/v1/leads')).toHaveLength(
			2 * pages(counts.qualified) + pages(counts.lost),
		);
	});
});

describe('Lead → Get Many, bad input is refused before sending', () => {
	test.each([
		[
			{ filters: { scoreMin: 101 } },
			/^Score Min must be a whole number from 0 to 100 \(got 101\) \[item 0\]$/,
		],
		[{ filters: { scoreMax: -1 } }, /^Score Max must be a whole number from 0 to 100/],
		[{ filters: { scoreMin: 12.5 } }, /^Score Min must be a whole number/],
		[
			{ filters: { scoreMin: 80, scoreMax: 20 } },
			/^Score Min \(80\) must not be greater than Score Max \(20\)/,
		],
		[{ filters: { createdAfter: 'last tuesday' } }, /^Created After must be an ISO 8601 date-time/],
		[
			{ filters: { createdBefore: '2025-02-30T00:00:00Z' } },
			/^Created Before must be an ISO 8601 date-time/,
		],
		[
			{ filters: { createdAfter: '2025-06-01T00:00:00Z', createdBefore: '2025-05-01T00:00:00Z' } },
			/^Created After .* must not be later than Created Before/,
		],
		[{ limit: 0 }, /^Limit must be a whole number of at least 1 \(got 0\) \[item 0\]$/],
		[{ limit: -3 }, /^Limit must be a whole number of at least 1/],
		[
			{ returnAll: false, options: { onlyNewSinceLastRun: true } },
			/^Only New Since Last Run needs Return All/,
		],
	])('%p', async (parameters, message) => {
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'getAll',
			...(parameters as object),
		});
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});

	test('a date from an expression is accepted as a date object too', async () => {
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'getAll',
			limit: 5,
			filters: { createdAfter: '={{ $now.minus({ years: 5 }) }}' },
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(ctx.sandbox)[0].query.created_after).toMatch(/^\d{4}-\d{2}-\d{2}T/);
	});
});

describe('Lead → Get Many, values from expressions', () => {
	const listLeads = { resource: 'lead', operation: 'getAll', limit: 5 };
	const FILTER_CHANNELS = 'chat_app, social_a, social_b, marketplace, web_form, email, phone';

	test.each(
		refusals([
			{
				field: 'Return All',
				parameter: 'returnAll',
				value: 'no',
				message: 'Return All must be true or false (got "no")',
			},
			{
				field: 'Limit',
				parameter: 'limit',
				value: 2.5,
				message: 'Limit must be a whole number of at least 1 (got 2.5)',
			},
			{
				field: 'Limit',
				parameter: 'limit',
				value: '10',
				message: 'Limit must be a whole number of at least 1 (got "10")',
			},
			{
				field: 'Channel',
				parameter: 'filters.channel',
				value: 'api',
				message: `Channel must be one of ${FILTER_CHANNELS} (got "api")`,
			},
			{
				field: 'Channel',
				parameter: 'filters.channel',
				value: 'fax',
				message: `Channel must be one of ${FILTER_CHANNELS} (got "fax")`,
			},
			{
				field: 'Intent',
				parameter: 'filters.intent',
				value: 'buy_now',
				message:
					'Intent must be one of purchase_30_days, purchase_90_days, browsing, unknown (got "buy_now")',
			},
			{
				field: 'Status',
				parameter: 'filters.status',
				value: 'New',
				message:
					'Status must be one of new, in_conversation, qualified, assigned, closed, lost (got "New")',
			},
			{
				field: 'Score Min',
				parameter: 'filters.scoreMin',
				value: '50',
				message: 'Score Min must be a whole number from 0 to 100 (got "50")',
			},
			{
				field: 'Only New Since Last Run',
				parameter: 'options.onlyNewSinceLastRun',
				value: 'yes',
				message: 'Only New Since Last Run must be true or false (got "yes")',
			},
			{
				field: 'Output',
				parameter: 'options.output',
				value: 'csv',
				message: 'Output must be one of compact, flat, raw (got "csv")',
			},
		]),
	)(
		'Get many leads refuses $field $shown from an expression, naming $field and item 0, before any request',
		async (refusal) => {
			await expectRefusedBeforeSending(ctx.sandbox, listLeads, refusal);
		},
	);

	test.each(['filters.status', 'filters.intent', 'filters.channel', 'filters.scoreMin'])(
		'a %s expression that finds nothing (null) filters nothing',
		async (parameter) => {
			const result = await run(ctx.sandbox, withExpression(listLeads, parameter), {
				inputItems: [{ value: null }],
			});
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toHaveLength(5);
			expect(apiRequests(ctx.sandbox, '/v1/leads').map((r) => r.query)).toEqual([{ limit: '5' }]);
		},
	);
});
