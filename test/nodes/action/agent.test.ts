import { alphaAgents, jsonOf, ref, run, useSandbox } from './helpers';
import { expectRefusedBeforeSending, refusals, withExpression } from './refusals';

const ctx = useSandbox();

describe('Agent, values from expressions', () => {
	const updateAgent = () => ({
		resource: 'agent',
		operation: 'update',
		agent: ref('id', alphaAgents(ctx.sandbox)[0].id),
		updateFields: { name: 'Sofía' },
	});
	const LANGUAGES = 'es-AR, es-MX, es-CR, es-CO, pt-BR, en-US';

	test.each(
		refusals([
			[
				'Status',
				'filters.status',
				'paused',
				'must be one of active, inactive, draft (got "paused")',
			],
			['Limit', 'limit', 1.5, 'must be a whole number of at least 1 (got 1.5)'],
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
			['Status', 'updateFields.status', 'draft', 'must be one of active, inactive (got "draft")'],
			['Status', 'updateFields.status', 'paused', 'must be one of active, inactive (got "paused")'],
			['Language', 'updateFields.language', 'fr-FR', `must be one of ${LANGUAGES} (got "fr-FR")`],
			['Language', 'updateFields.language', 'es', `must be one of ${LANGUAGES} (got "es")`],
			[
				'Tone',
				'updateFields.tone',
				'rude',
				'must be one of formal, friendly, professional (got "rude")',
			],
			[
				'Max Follow-Ups',
				'updateFields.maxFollowUps',
				-1,
				'must be a whole number of at least 0 (got -1)',
			],
			[
				'Max Follow-Ups',
				'updateFields.maxFollowUps',
				1.5,
				'must be a whole number of at least 0 (got 1.5)',
			],
			[
				'Max Follow-Ups',
				'updateFields.maxFollowUps',
				'3',
				'must be a whole number of at least 0 (got "3")',
			],
			[
				'Follow-Up Interval (Days)',
				'updateFields.followUpIntervalDays',
				-2,
				'must be a whole number of at least 0 (got -2)',
			],
			[
				'Follow-Up Interval (Days)',
				'updateFields.followUpIntervalDays',
				0.5,
				'must be a whole number of at least 0 (got 0.5)',
			],
			['Handoff Triggers', 'updateFields.handoffTriggers', true, 'must be a list (got true)'],
			[
				'Handoff Triggers',
				'updateFields.handoffTriggers',
				['financing', { topic: 'trade-in' }],
				'(entry 2) must be text (got {"topic":"trade-in"})',
			],
			['Name', 'updateFields.name', '   ', 'is required'],
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
		const agent = alphaAgents(ctx.sandbox)[0];
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
