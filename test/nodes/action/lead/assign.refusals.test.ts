import { alphaLeads, apiRequests, jsonOf, operationRunner, ref, useSandbox } from '../helpers';
import { expectRefusedBeforeSending, refusals } from '../refusals';

const ctx = useSandbox();
const runOperation = operationRunner(ctx, 'lead', 'assign');

/** Rows as n8n's Data Table node gives them: its own id and dates beside the table's columns. */
const tableRow = (id: number, userId: string, weight: number | null, away: boolean | null) => ({
	id,
	user_id: userId,
	weight,
	away,
	createdAt: '2026-11-20T10:00:00.000Z',
	updatedAt: '2026-11-20T10:00:00.000Z',
});

const fromExpression = () => ({
	resource: 'lead',
	operation: 'assign',
	lead: ref('id', ctx.sandbox.control.createChannelLead().id),
	rosterSource: 'expression',
	rosterRows: '[]',
});

describe('Lead → Assign, roster from an expression', () => {
	test('Data Table rows: user_id, weight and away columns, empty cells taken as weight 1 and present', async () => {
		const id = ctx.sandbox.control.createChannelLead().id;
		const result = await runOperation(
			{ lead: ref('id', id), rosterSource: 'expression', rosterRows: '={{ $json.rows }}' },
			{
				inputItems: [
					{
						rows: [tableRow(1, 'user_away', 3, true), tableRow(2, 'user_present', null, null)],
					},
				],
			},
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({ id, assigned_to: 'user_present' });
	});

	test('JSON text typed into Roster Rows is read as the list it spells', async () => {
		const id = ctx.sandbox.control.createChannelLead().id;
		const result = await runOperation({
			lead: ref('id', id),
			rosterSource: 'expression',
			rosterRows: '[{"userId": "user_typed"}]',
		});
		expect(jsonOf(result)[0]).toMatchObject({ assigned_to: 'user_typed' });
	});

	test.each(
		refusals([
			['Roster Rows', 'rosterRows', [], 'is empty: add at least one advisor'],
			['Roster Rows', 'rosterRows', 'user_ana', 'must be a list of advisors (got "user_ana")'],
			[
				'Roster Rows',
				'rosterRows',
				"$('Roster').all()",
				`is plain text, not an expression: write {{ $('Roster').all() }} with the double braces (got "$('Roster').all()")`,
			],
			[
				'Roster Rows',
				'rosterRows',
				[tableRow(1, 'user_a', 1, true), tableRow(2, 'user_b', null, true)],
				'has every advisor away, so no one can take the lead',
			],
			[
				'Roster Rows',
				'rosterRows',
				[tableRow(1, 'user_a', 1, false), tableRow(2, 'user_a', 2, false)],
				'lists user_a twice (rows 1 and 2): keep one row per advisor',
			],
			[
				'Roster Rows (row 2)',
				'rosterRows',
				[tableRow(1, 'user_a', 1, false), { name: 'Bruno' }],
				'has no User ID (a userId or user_id field); its fields: name',
			],
			[
				'Roster Rows (row 1) Weight',
				'rosterRows',
				[tableRow(1, 'user_a', 0, false)],
				'must be a number greater than 0 and at most 1000 (got 0)',
			],
			[
				'Roster Rows (row 1) Weight',
				'rosterRows',
				[{ user_id: 'user_a', weight: '2' }],
				'must be a number greater than 0 and at most 1000 (got "2")',
			],
			[
				'Roster Rows (row 1) Weight',
				'rosterRows',
				[{ user_id: 'user_a', weight: -1 }],
				'must be a number greater than 0 and at most 1000 (got -1)',
			],
			[
				'Roster Rows (row 1) Away',
				'rosterRows',
				[{ user_id: 'user_a', away: 'yes' }],
				'must be true or false (got "yes")',
			],
			['Roster Rows (row 1) User ID', 'rosterRows', [{ user_id: '   ' }], 'is required'],
			[
				'Roster Rows (row 1)',
				'rosterRows',
				['user_a'],
				'must be an object with a user ID (got "user_a")',
			],
		]),
	)(
		'Assign refuses $field $shown from an expression, naming $field and item 0, before any request',
		async (refusal) => {
			await expectRefusedBeforeSending(ctx.sandbox, fromExpression(), refusal);
		},
	);
});

describe('Lead → Assign, roster entered in the node', () => {
	test.each([{}, { advisor: [] }])(
		'Advisors %p is refused naming Advisors (not n8n\'s generic "At least 1 field"), before any request',
		async (advisors) => {
			const result = await runOperation({
				lead: ref('id', alphaLeads(ctx.sandbox)[0].id),
				advisors,
			});
			expect(result.error?.message).toBe('Advisors is empty: add at least one advisor [item 0]');
			expect(apiRequests(ctx.sandbox)).toHaveLength(0);
		},
	);

	test.each([
		[{ advisor: [{ userId: 'user_a', weight: 0 }] }, /^Advisors \(row 1\) Weight must be a number/],
		[{ advisor: [{ userId: 'user_a', away: true }] }, /^Advisors has every advisor away/],
		[
			{ advisor: [{ userId: 'user_a' }, { userId: ' user_a ' }] },
			/^Advisors lists user_a twice \(rows 1 and 2\)/,
		],
	])('Advisors %p is refused before any request', async (advisors, message) => {
		const result = await runOperation({
			lead: ref('id', alphaLeads(ctx.sandbox)[0].id),
			advisors,
		});
		expect(result.error?.message).toMatch(message);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});

	test('a lead ID without lead_ from an expression is refused before any request', async () => {
		const result = await runOperation({
			lead: ref('id', '={{ "user_42" }}'),
			advisors: { advisor: [{ userId: 'user_a' }] },
		});
		expect(result.error?.message).toMatch(/^Lead must be an ID starting with "lead_"/);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});
});
