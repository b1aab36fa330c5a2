import { LeadConversations } from '../../../nodes/LeadConversations/LeadConversations.node';
import type { StoredAgent } from '../../../sandbox';
import { apiRequests, jsonOf, ref, run, useSandbox } from './helpers';
import { expectRefusedBeforeSending, refusals, withExpression } from './refusals';

const ctx = useSandbox();

function alphaAgents(): StoredAgent[] {
	return ctx.sandbox.control
		.state()
		.agents.filter((agent) => agent.organization_id === 'org_alpha');
}

describe('Agent → Get and Get Many', () => {
	test('Get returns the agent with its configuration', async () => {
		const agent = alphaAgents()[0];
		const result = await run(ctx.sandbox, {
			resource: 'agent',
			operation: 'get',
			agent: ref('list', agent.id),
		});
		expect(jsonOf(result)[0]).toMatchObject({
			id: agent.id,
			name: agent.name,
			configuration: expect.any(Object),
		});
	});

	test('an unknown agent is "not found in this organization" (flat error shape)', async () => {
		const result = await run(ctx.sandbox, {
			resource: 'agent',
			operation: 'get',
			agent: ref('id', 'agent_missing'),
		});
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toBe('Agent agent_missing not found in this organization');
		expect(result.error?.description).toMatch(/^HTTP 404 not_found: /);
	});

	test.each(['active', 'inactive', 'draft'])('Get Many filtered by status %s', async (status) => {
		const result = await run(ctx.sandbox, {
			resource: 'agent',
			operation: 'getAll',
			returnAll: true,
			filters: { status },
		});
		const expected = alphaAgents().filter((agent) => agent.status === status);
		expect(expected.length).toBeGreaterThan(0);
		expect(
			jsonOf(result)
				.map((a) => a.id)
				.sort(),
		).toEqual(expected.map((a) => a.id).sort());
		expect(apiRequests(ctx.sandbox)[0].query).toEqual({ status, limit: '100' });
	});

	test('Get Many without a filter returns every agent, without configuration', async () => {
		const result = await run(ctx.sandbox, {
			resource: 'agent',
			operation: 'getAll',
			returnAll: true,
		});
		expect(jsonOf(result)).toHaveLength(alphaAgents().length);
		expect(jsonOf(result).every((agent) => agent.configuration === undefined)).toBe(true);
	});

	test('Get Many with Limit 2 asks for 2', async () => {
		const result = await run(ctx.sandbox, { resource: 'agent', operation: 'getAll', limit: 2 });
		expect(jsonOf(result)).toHaveLength(2);
		expect(apiRequests(ctx.sandbox)[0].query).toEqual({ limit: '2' });
	});
});

describe('Agent → Update', () => {
	test('sends name, status, language and a nested configuration; handoff triggers replace the list', async () => {
		const agent = alphaAgents().find((a) => a.status !== 'draft')!;
		const result = await run(ctx.sandbox, {
			resource: 'agent',
			operation: 'update',
			agent: ref('id', agent.id),
			updateFields: {
				name: 'Sofía',
				status: 'inactive',
				language: 'pt-BR',
				tone: 'formal',
				handoffTriggers: ['financing', 'trade-in'],
				maxFollowUps: 4,
				followUpIntervalDays: 3,
			},
		});
		expect(result.error).toBeUndefined();
		const updated = jsonOf(result)[0];
		expect(updated).toMatchObject({
			name: 'Sofía',
			status: 'inactive',
			language: 'pt-BR',
			configuration: {
				tone: 'formal',
				handoff_triggers: ['financing', 'trade-in'],
				follow_up_cadence: { max_follow_ups: 4, interval_days: 3 },
			},
		});
		// Read-only configuration stays as it was.
		const stored = ctx.sandbox.control.state().agents.find((a) => a.id === agent.id)!;
		expect(stored.configuration.allowed_topics).toEqual(agent.configuration.allowed_topics);
		expect(stored.configuration.follow_up_cadence.channel).toBe(
			agent.configuration.follow_up_cadence.channel,
		);
		expect(apiRequests(ctx.sandbox).map((r) => `${r.method} ${r.status}`)).toEqual(['PATCH 200']);
	});

	test('Handoff Triggers added with no entries clears the list', async () => {
		const agent = alphaAgents()[0];
		const result = await run(ctx.sandbox, {
			resource: 'agent',
			operation: 'update',
			agent: ref('id', agent.id),
			updateFields: { handoffTriggers: [] },
		});
		expect(
			(jsonOf(result)[0].configuration as { handoff_triggers: unknown }).handoff_triggers,
		).toEqual([]);
	});

	test('an empty update is refused before sending', async () => {
		const result = await run(ctx.sandbox, {
			resource: 'agent',
			operation: 'update',
			agent: ref('id', alphaAgents()[0].id),
			updateFields: {},
		});
		expect(result.error?.message).toMatch(/^Update Fields is empty/);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});

	test('read-only configuration fields are not offered', () => {
		const names = JSON.stringify(new LeadConversations().description.properties);
		expect(names).not.toMatch(/allowed_?topics|allowedTopics/i);
		expect(names).not.toMatch(/"followUpChannel"|follow_up_cadence\.channel/);
		const statusField = new LeadConversations().description.properties
			.filter(
				(p) => p.name === 'updateFields' && p.displayOptions?.show?.resource?.includes('agent'),
			)
			.flatMap(
				(p) => (p.options ?? []) as Array<{ name: string; options?: Array<{ value: string }> }>,
			)
			.find((o) => o.name === 'status');
		expect(statusField?.options?.map((o) => o.value).sort()).toEqual(['active', 'inactive']);
	});
});

describe('Agent, values from expressions', () => {
	const updateAgent = () => ({
		resource: 'agent',
		operation: 'update',
		agent: ref('id', alphaAgents()[0].id),
		updateFields: { name: 'Sofía' },
	});
	const LANGUAGES = 'es-AR, es-MX, es-CR, es-CO, pt-BR, en-US';

	test.each(
		refusals([
			{
				field: 'Status',
				parameter: 'filters.status',
				value: 'paused',
				message: 'Status must be one of active, inactive, draft (got "paused")',
			},
			{
				field: 'Limit',
				parameter: 'limit',
				value: 1.5,
				message: 'Limit must be a whole number of at least 1 (got 1.5)',
			},
		]),
	)(
		'Get many agents refuses $field $shown from an expression, naming $field and item 0, before any request',
		async (refusal) => {
			await expectRefusedBeforeSending(
				ctx.sandbox,
				{ resource: 'agent', operation: 'getAll', limit: 5 },
				refusal,
			);
		},
	);

	test.each(
		refusals([
			{
				field: 'Status',
				parameter: 'updateFields.status',
				value: 'draft',
				message: 'Status must be one of active, inactive (got "draft")',
			},
			{
				field: 'Status',
				parameter: 'updateFields.status',
				value: 'paused',
				message: 'Status must be one of active, inactive (got "paused")',
			},
			{
				field: 'Language',
				parameter: 'updateFields.language',
				value: 'fr-FR',
				message: `Language must be one of ${LANGUAGES} (got "fr-FR")`,
			},
			{
				field: 'Language',
				parameter: 'updateFields.language',
				value: 'es',
				message: `Language must be one of ${LANGUAGES} (got "es")`,
			},
			{
				field: 'Tone',
				parameter: 'updateFields.tone',
				value: 'rude',
				message: 'Tone must be one of formal, friendly, professional (got "rude")',
			},
			{
				field: 'Max Follow-Ups',
				parameter: 'updateFields.maxFollowUps',
				value: -1,
				message: 'Max Follow-Ups must be a whole number of at least 0 (got -1)',
			},
			{
				field: 'Max Follow-Ups',
				parameter: 'updateFields.maxFollowUps',
				value: 1.5,
				message: 'Max Follow-Ups must be a whole number of at least 0 (got 1.5)',
			},
			{
				field: 'Max Follow-Ups',
				parameter: 'updateFields.maxFollowUps',
				value: '3',
				message: 'Max Follow-Ups must be a whole number of at least 0 (got "3")',
			},
			{
				field: 'Follow-Up Interval (Days)',
				parameter: 'updateFields.followUpIntervalDays',
				value: -2,
				message: 'Follow-Up Interval (Days) must be a whole number of at least 0 (got -2)',
			},
			{
				field: 'Follow-Up Interval (Days)',
				parameter: 'updateFields.followUpIntervalDays',
				value: 0.5,
				message: 'Follow-Up Interval (Days) must be a whole number of at least 0 (got 0.5)',
			},
			{
				field: 'Handoff Triggers',
				parameter: 'updateFields.handoffTriggers',
				value: true,
				message: 'Handoff Triggers must be a list (got true)',
			},
			{
				field: 'Handoff Triggers',
				parameter: 'updateFields.handoffTriggers',
				value: ['financing', { topic: 'trade-in' }],
				message: 'Handoff Triggers (entry 2) must be text (got {"topic":"trade-in"})',
			},
			{
				field: 'Name',
				parameter: 'updateFields.name',
				value: '   ',
				message: 'Name is required',
			},
		]),
	)(
		'Update agent refuses $field $shown from an expression, naming $field and item 0, before any request',
		async (refusal) => {
			await expectRefusedBeforeSending(ctx.sandbox, updateAgent(), refusal);
		},
	);

	test('Update agent takes Handoff Triggers as comma-separated text from an expression', async () => {
		const result = await run(
			ctx.sandbox,
			withExpression(updateAgent(), 'updateFields.handoffTriggers'),
			{ inputItems: [{ value: 'financing, trade-in' }] },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0].configuration).toMatchObject({
			handoff_triggers: ['financing', 'trade-in'],
		});
	});

	test('Update agent keeps Handoff Triggers when their expression finds nothing (null)', async () => {
		const agent = alphaAgents()[0];
		expect(agent.configuration.handoff_triggers.length).toBeGreaterThan(0);
		const result = await run(
			ctx.sandbox,
			withExpression(updateAgent(), 'updateFields.handoffTriggers'),
			{ inputItems: [{ value: null }] },
		);
		expect(result.error).toBeUndefined();
		const stored = ctx.sandbox.control.state().agents.find((a) => a.id === agent.id)!;
		expect(stored.name).toBe('Sofía');
		expect(stored.configuration.handoff_triggers).toEqual(agent.configuration.handoff_triggers);
	});
});
