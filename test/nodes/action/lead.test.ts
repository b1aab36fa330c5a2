import { NodeConnectionTypes } from 'n8n-workflow';

import { ACTION_NODE_TYPE, MANUAL_TRIGGER_NODE_TYPE, runWorkflow } from '../../../harness/engine';
import { NODE, alphaLeads, apiRequests, credentialsOf, ref, run, useSandbox } from './helpers';

const ctx = useSandbox();

function firstLeadId(): string {
	return alphaLeads(ctx.sandbox)[0].id;
}

describe('several input items', () => {
	test('continue on fail: the failing items become error items, the others go on, all paired', async () => {
		const [a, b] = alphaLeads(ctx.sandbox);
		const result = await run(
			ctx.sandbox,
			{ resource: 'lead', operation: 'get', lead: ref('id', '={{ $json.id }}') },
			{
				continueOnFail: true,
				inputItems: [{ id: a.id }, { id: 'conv_wrong' }, { id: 'lead_missing' }, { id: b.id }],
			},
		);
		expect(result.status).toBe('success');
		const output = result.output('Lead Conversations');
		expect(output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(output[0].json.id).toBe(a.id);
		expect(output[1].json.error).toMatch(/^Lead must be an ID starting with "lead_".*\[item 1\]$/);
		expect(output[2].json).toMatchObject({
			error: 'Lead lead_missing not found in this organization',
			httpCode: '404',
		});
		expect(output[3].json.id).toBe(b.id);
		// The refused item sent nothing; the others one GET each.
		expect(apiRequests(ctx.sandbox).map((r) => r.path)).toEqual([
			`/v1/leads/${a.id}`,
			'/v1/leads/lead_missing',
			`/v1/leads/${b.id}`,
		]);
	});

	test('without continue on fail the first failing item stops the node', async () => {
		const [a] = alphaLeads(ctx.sandbox);
		const result = await run(
			ctx.sandbox,
			{ resource: 'lead', operation: 'get', lead: ref('id', '={{ $json.id }}') },
			{ inputItems: [{ id: a.id }, { id: 'lead_missing' }, { id: a.id }] },
		);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Lead lead_missing not found in this organization');
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(apiRequests(ctx.sandbox)).toHaveLength(2);
	});
});

describe('the item of an error', () => {
	test('a value refused on item 1 names item 1; item 0 was sent, item 1 was not', async () => {
		const result = await run(
			ctx.sandbox,
			{
				resource: 'lead',
				operation: 'update',
				lead: ref('id', firstLeadId()),
				updateFields: { status: '={{ $json.status }}' },
			},
			{ inputItems: [{ status: 'qualified' }, { status: 'won' }] },
		);
		expect(result.error?.message).toBe(
			'Status must be one of new, in_conversation, qualified, assigned, closed, lost (got "won") [item 1]',
		);
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(apiRequests(ctx.sandbox).map((r) => `${r.method} ${r.status}`)).toEqual(['PATCH 200']);
	});

	test('an error n8n raises inside a request without naming an item (no credential chosen) names the item', async () => {
		const result = await runWorkflow(
			{
				nodes: [
					{ name: 'Manual Trigger', type: MANUAL_TRIGGER_NODE_TYPE, parameters: {} },
					{
						name: NODE,
						type: ACTION_NODE_TYPE,
						parameters: { resource: 'lead', operation: 'get', lead: ref('id', firstLeadId()) },
						credentials: {},
					},
				],
				connections: {
					'Manual Trigger': { main: [[{ node: NODE, type: NodeConnectionTypes.Main, index: 0 }]] },
				},
			},
			credentialsOf(ctx.sandbox),
		);
		expect(result.error?.message).toMatch(/credentials/i);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});
});
