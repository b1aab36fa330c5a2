import { n8nEngine } from '../../../compat/engine';
import {
	alphaLeads,
	apiRequests,
	jsonOf,
	ref,
	run,
	useSandbox,
	visibleTrace,
	operationRunner,
} from '../helpers';

const ctx = useSandbox();
const runOperation = operationRunner(ctx, 'lead', 'get');

describe('Lead → Get', () => {
	test('reads a lead by ID from the list or by ID mode', async () => {
		const id = alphaLeads(ctx.sandbox)[0].id;
		for (const mode of ['list', 'id'] as const) {
			const result = await runOperation({ lead: ref(mode, id) });
			expect(jsonOf(result)).toEqual([expect.objectContaining({ id })]);
		}
		expect(apiRequests(ctx.sandbox).map((r) => r.path)).toEqual([
			`/v1/leads/${id}`,
			`/v1/leads/${id}`,
		]);
	});

	test('a lead of another organization is "not found in this organization" (nested error shape)', async () => {
		const foreign = ctx.sandbox.control
			.state()
			.leads.find((lead) => lead.organization_id === 'org_beta')!.id;
		const result = await runOperation({ lead: ref('id', foreign) });
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toBe(`Lead ${foreign} not found in this organization`);
		expect(result.error?.description).toMatch(/^HTTP 404 lead_not_found: /);
		expect(visibleTrace(result)).not.toContain(ctx.sandbox.keys.full);
	});

	test.each(['conv_abc', 'abc', 'lead_a b'])(
		'a typed ID %p with the wrong prefix is flagged by n8n before the run; nothing is sent',
		async (id) => {
			await expect(runOperation({ lead: ref('id', id) })).rejects.toThrow(
				// n8n-core 1.x refuses the run with a general message; the editor shows the issue.
				n8nEngine.major === 1
					? 'The workflow has issues and cannot be executed'
					: 'A lead ID starts with "lead_"',
			);
			expect(apiRequests(ctx.sandbox)).toHaveLength(0);
		},
	);

	test.each(['conv_abc', 'abc', 'lead_a b', ''])(
		'an ID %p from an expression is checked by the node before sending',
		async (id) => {
			const result = await run(
				ctx.sandbox,
				{ resource: 'lead', operation: 'get', lead: ref('id', '={{ $json.id }}') },
				{ inputItems: [{ id }] },
			);
			expect(result.error?.message).toMatch(
				id === ''
					? /^Lead is required \[item 0\]$/
					: /^Lead must be an ID starting with "lead_".*\[item 0\]$/,
			);
			expect(apiRequests(ctx.sandbox)).toHaveLength(0);
		},
	);
});
