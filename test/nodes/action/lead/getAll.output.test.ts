// Lead → Get Many: what comes out (Raw, Flat), and one query per input item.

import { FLAT_LEAD_COLUMNS } from '../../../../nodes/shared/flatLead';
import {
	alphaLeads,
	apiRequests,
	jsonOf,
	pages,
	pairedOf,
	run,
	useSandbox,
	operationRunner,
} from '../helpers';

const SEED_LEADS = 1200;
const ctx = useSandbox({ leads: SEED_LEADS }, { resetEach: false });
const runOperation = operationRunner(ctx, 'lead', 'getAll');

describe('Lead → Get Many, output', () => {
	test('Raw returns each lead as the service sends it', async () => {
		const result = await runOperation({ limit: 3 });
		const [first] = jsonOf(result);
		const stored = alphaLeads(ctx.sandbox).find((lead) => lead.id === first.id)!;
		const { notes: _notes, ...visible } = stored;
		expect(first).toEqual(visible);
	});

	test('Flat returns spreadsheet columns in a fixed order for every lead', async () => {
		const result = await runOperation({ limit: 120, options: { output: 'flat' } });
		const rows = jsonOf(result);
		expect(rows).toHaveLength(120);
		for (const row of rows) expect(Object.keys(row)).toEqual([...FLAT_LEAD_COLUMNS]);
		const withoutEmail = rows.find((row) => row.email === null);
		expect(withoutEmail).toBeDefined();
	});

	test('every item is paired with the single input item', async () => {
		const result = await runOperation({ limit: 130 });
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
