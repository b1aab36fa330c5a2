import type { INodeType } from 'n8n-workflow';

import { ACTION_NODE_TYPE } from '../../../harness/engine';
import { LeadConversations } from '../../../nodes/LeadConversations/LeadConversations.node';
import { alphaLeads, apiRequests, jsonOf, run, useSandbox } from './helpers';
import { COMPACT_LEAD_FIELDS } from '../../../nodes/LeadConversations/actions/tool.descriptions';

// The node as n8n's AI Agent runs it: n8n derives a "…Tool" node type from `usableAsTool` (same
// class, description named with "Tool" appended, which is what `@tool` display options test).
// Here that variant keeps a main input so the engine can feed it the item a tool call makes.

const TOOL_NODE_TYPE = `${ACTION_NODE_TYPE}Tool`;

function toolVariant(): INodeType {
	const regular = new LeadConversations();
	return Object.create(regular, {
		description: { value: { ...regular.description, name: 'leadConversationsTool' } },
	}) as INodeType;
}

const asTool = { nodeType: TOOL_NODE_TYPE, nodeTypes: { [TOOL_NODE_TYPE]: toolVariant() } };

const context = useSandbox();

describe('Lead → Get Many as a tool', () => {
	it('returns at most 10 compact leads unless the workflow sets a limit', async () => {
		const result = await run(context.sandbox, { resource: 'lead', operation: 'getAll' }, asTool);
		const leads = jsonOf(result);
		expect(alphaLeads(context.sandbox).length).toBeGreaterThan(10);
		expect(leads).toHaveLength(10);
		for (const lead of leads) expect(Object.keys(lead)).toEqual([...COMPACT_LEAD_FIELDS]);
		expect(apiRequests(context.sandbox, '/v1/leads')[0].query.limit).toBe('10');
	});

	it('the regular node keeps its default of 50 raw leads', async () => {
		const result = await run(context.sandbox, { resource: 'lead', operation: 'getAll' });
		const leads = jsonOf(result);
		expect(leads).toHaveLength(50);
		expect(leads[0]).toHaveProperty('phone');
	});

	it('a filter the model left empty filters nothing', async () => {
		const result = await run(
			context.sandbox,
			{
				resource: 'lead',
				operation: 'getAll',
				limit: 5,
				filters: { status: '', channel: 'marketplace' },
			},
			asTool,
		);
		expect(jsonOf(result).length).toBeGreaterThan(0);
		expect(apiRequests(context.sandbox, '/v1/leads')[0].query).toEqual({
			channel: 'marketplace',
			limit: '5',
		});
	});

	it('an unknown status fails with the field, the allowed values and that nothing was sent', async () => {
		const result = await run(
			context.sandbox,
			{ resource: 'lead', operation: 'getAll', filters: { status: 'hot' } },
			asTool,
		);
		expect(result.error?.message).toBe(
			'Status must be one of new, in_conversation, qualified, assigned, closed, lost (got "hot") [item 0]. Nothing was sent to the service for this item.',
		);
		expect(apiRequests(context.sandbox)).toHaveLength(0);
	});
});

describe('Lead → Update as a tool', () => {
	it('sends only the fields given: an empty value leaves the stored one alone', async () => {
		const [lead] = alphaLeads(context.sandbox).filter((candidate) => candidate.notes);
		const result = await run(
			context.sandbox,
			{
				resource: 'lead',
				operation: 'update',
				lead: { __rl: true, mode: 'id', value: lead.id },
				updateFields: { assignedTo: 'user_42', status: '', notes: '', vehicleInterest: '  ' },
			},
			asTool,
		);
		expect(result.error).toBeUndefined();
		const stored = alphaLeads(context.sandbox).find((candidate) => candidate.id === lead.id)!;
		expect(stored).toMatchObject({
			assigned_to: 'user_42',
			notes: lead.notes,
			vehicle_interest: lead.vehicle_interest,
		});
	});

	it('a lead that does not exist fails with the HTTP status and the service’s message', async () => {
		const result = await run(
			context.sandbox,
			{
				resource: 'lead',
				operation: 'update',
				lead: { __rl: true, mode: 'id', value: 'lead_doesnotexist' },
				updateFields: { assignedTo: 'user_42' },
			},
			asTool,
		);
		expect(result.error?.message).toContain('lead_doesnotexist not found');
		expect(result.error?.message).toContain('HTTP 404');
	});
});

describe('Agent → Update as a tool', () => {
	it('changes only the fields given a value: empty ones are neither sent nor refused', async () => {
		const [agent] = context.sandbox.control
			.state()
			.agents.filter((candidate) => candidate.organization_id === 'org_alpha');
		const tone = agent.configuration.tone === 'formal' ? 'friendly' : 'formal';
		const result = await run(
			context.sandbox,
			{
				resource: 'agent',
				operation: 'update',
				agent: { __rl: true, mode: 'id', value: agent.id },
				updateFields: { tone, name: '', language: '', status: ' ' },
			},
			asTool,
		);
		expect(result.error).toBeUndefined();
		const stored = context.sandbox.control.state().agents.find((a) => a.id === agent.id)!;
		expect(stored.configuration.tone).toBe(tone);
		expect(stored).toMatchObject({
			name: agent.name,
			language: agent.language,
			status: agent.status,
		});
	});
});

describe('the tool description', () => {
	it('is prefilled per operation in the tool variant and absent from the regular node', () => {
		const { properties } = new LeadConversations().description;
		const descriptions = properties.filter((property) => property.name === 'toolDescription');
		expect(descriptions).toHaveLength(11);
		for (const property of descriptions) {
			expect(property.displayOptions?.show?.['@tool']).toEqual([true]);
			expect(String(property.default).length).toBeGreaterThan(60);
		}
	});
});
