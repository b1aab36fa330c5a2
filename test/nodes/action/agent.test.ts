import type { StoredAgent } from '../../../sandbox';
import { jsonOf, ref, run, useSandbox } from './helpers';
import { expectRefusedBeforeSending, refusals, withExpression } from './refusals';

const ctx = useSandbox();

function alphaAgents(): StoredAgent[] {
	return ctx.sandbox.control
		.state()
		.agents.filter((agent) => agent.organization_id === 'org_alpha');
}

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
