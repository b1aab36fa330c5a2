import { LeadConversations } from '../../../../nodes/LeadConversations/LeadConversations.node';
import { alphaAgents, apiRequests, jsonOf, ref, useSandbox, operationRunner } from '../helpers';

const ctx = useSandbox();
const runOperation = operationRunner(ctx, 'agent', 'update');

describe('Agent → Update', () => {
	test('sends name, status, language and a nested configuration; handoff triggers replace the list', async () => {
		const agent = alphaAgents(ctx.sandbox).find((a) => a.status !== 'draft')!;
		const result = await runOperation({
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
		const agent = alphaAgents(ctx.sandbox)[0];
		const result = await runOperation({
			agent: ref('id', agent.id),
			updateFields: { handoffTriggers: [] },
		});
		expect(
			(jsonOf(result)[0].configuration as { handoff_triggers: unknown }).handoff_triggers,
		).toEqual([]);
	});

	test('an empty update is refused before sending', async () => {
		const result = await runOperation({
			agent: ref('id', alphaAgents(ctx.sandbox)[0].id),
			updateFields: {},
		});
		expect(result.error?.message).toMatch(/^Update Fields is empty/);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});

	test('Handoff Triggers with blank rows only: refused, saying blank rows are skipped', async () => {
		const result = await runOperation({
			agent: ref('id', alphaAgents(ctx.sandbox)[0].id),
			updateFields: { handoffTriggers: ['', '  '] },
		});
		expect(result.error?.message).toMatch(
			/^Update Fields is empty: the Handoff Triggers rows are blank, and blank rows are skipped\. Type a trigger into a row, or remove every row to clear the list/,
		);
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
