import { alphaLeads, apiRequests, jsonOf, ref, run, useSandbox, operationRunner } from '../helpers';
import { expectRefusedBeforeSending, refusals, withExpression } from '../refusals';

const ctx = useSandbox();
const runOperation = operationRunner(ctx, 'lead', 'update');

describe('Lead → Update', () => {
	test('changes status, advisor, vehicle interest and notes in one PATCH', async () => {
		const id = alphaLeads(ctx.sandbox)[0].id;
		const result = await runOperation({
			lead: ref('id', id),
			updateFields: {
				status: 'assigned',
				assignedTo: 'user_42',
				vehicleInterest: 'Ford Ranger',
				notes: 'Call back Monday',
			},
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({
			id,
			status: 'assigned',
			assigned_to: 'user_42',
			vehicle_interest: 'Ford Ranger',
		});
		expect(ctx.sandbox.control.state().leads.find((l) => l.id === id)?.notes).toBe(
			'Call back Monday',
		);
		expect(apiRequests(ctx.sandbox).map((r) => `${r.method} ${r.status}`)).toEqual(['PATCH 200']);
	});

	test('Fields to Clear sends null for the advisor, the vehicle interest and the notes', async () => {
		const id = alphaLeads(ctx.sandbox)[0].id;
		await runOperation({
			lead: ref('id', id),
			updateFields: { assignedTo: 'user_7', vehicleInterest: 'Hilux', notes: 'x' },
		});
		const result = await runOperation({
			lead: ref('id', id),
			updateFields: { clearFields: ['assigned_to', 'vehicle_interest', 'notes'] },
		});
		expect(jsonOf(result)[0]).toMatchObject({ assigned_to: null, vehicle_interest: null });
		const stored = ctx.sandbox.control.state().leads.find((l) => l.id === id)!;
		expect(stored).toMatchObject({ assigned_to: null, vehicle_interest: null, notes: null });
	});

	test('a field chosen in Fields to Clear is hidden, so n8n drops a value left in it: it is cleared', async () => {
		const id = alphaLeads(ctx.sandbox)[0].id;
		await runOperation({ lead: ref('id', id), updateFields: { notes: 'x', assignedTo: 'u_1' } });
		const result = await runOperation({
			lead: ref('id', id),
			updateFields: { notes: 'y', assignedTo: 'u_2', clearFields: ['notes', 'assigned_to'] },
		});
		expect(result.error).toBeUndefined();
		const stored = ctx.sandbox.control.state().leads.find((l) => l.id === id)!;
		expect(stored).toMatchObject({ assigned_to: null, notes: null });
	});

	test('a node saved at version 1 keeps its Unassign switch, which clears the advisor', async () => {
		const id = alphaLeads(ctx.sandbox)[0].id;
		await runOperation({ lead: ref('id', id), updateFields: { assignedTo: 'user_7' } });
		const result = await runOperation(
			{ lead: ref('id', id), updateFields: { unassign: true } },
			{ typeVersion: 1 },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({ assigned_to: null });
		// A newer node has no Unassign: n8n drops the value, and nothing is left to send.
		const newer = await runOperation({ lead: ref('id', id), updateFields: { unassign: true } });
		expect(newer.error?.message).toMatch(/^Update Fields is empty/);
	});

	test('fields not given stay unchanged', async () => {
		const before = alphaLeads(ctx.sandbox)[0];
		await runOperation({ lead: ref('id', before.id), updateFields: { status: 'lost' } });
		const after = ctx.sandbox.control.state().leads.find((l) => l.id === before.id)!;
		expect(after).toMatchObject({
			status: 'lost',
			assigned_to: before.assigned_to,
			vehicle_interest: before.vehicle_interest,
			notes: before.notes,
		});
	});

	test.each([
		[{}, /^Update Fields is empty/],
		[{ assignedTo: '  ' }, /^Assigned To is empty/],
	])(
		'contradictory or empty update %p is refused before sending',
		async (updateFields, message) => {
			const result = await runOperation({
				lead: ref('id', alphaLeads(ctx.sandbox)[0].id),
				updateFields,
			});
			expect(result.error?.message).toMatch(message);
			expect(apiRequests(ctx.sandbox)).toHaveLength(0);
		},
	);
});

describe('Lead → Update, values from expressions', () => {
	const STATUSES = 'new, in_conversation, qualified, assigned, closed, lost';
	const updateLead = () => ({
		resource: 'lead',
		operation: 'update',
		lead: ref('id', alphaLeads(ctx.sandbox)[0].id),
		updateFields: { vehicleInterest: 'Toyota Hilux 2024' },
	});

	test.each(
		refusals([
			['Status', 'updateFields.status', 'won', `must be one of ${STATUSES} (got "won")`],
			[
				'Status',
				'updateFields.status',
				'QUALIFIED',
				`must be one of ${STATUSES} (got "QUALIFIED")`,
			],
			[
				'Assigned To',
				'updateFields.assignedTo',
				'   ',
				'is empty: enter a user ID, or choose Assigned To in Fields to Clear to remove the advisor',
			],
			[
				'Assigned To',
				'updateFields.assignedTo',
				{ id: 'user_42' },
				'must be text (got {"id":"user_42"})',
			],
			['Fields to Clear', 'updateFields.clearFields', 'notes', 'must be a list (got "notes")'],
			[
				'Fields to Clear',
				'updateFields.clearFields',
				['notes', 'email'],
				'(entry 2) must be one of assigned_to, notes, vehicle_interest (got "email")',
			],
			['Notes', 'updateFields.notes', true, 'must be text (got true)'],
		]),
	)(
		'Update lead refuses $field $shown from an expression, naming $field and item 0, before any request',
		async (refusal) => {
			await expectRefusedBeforeSending(ctx.sandbox, updateLead(), refusal);
		},
	);

	test('Update lead leaves a field out when its expression finds nothing (null)', async () => {
		const before = alphaLeads(ctx.sandbox)[0];
		const parameters = withExpression(updateLead(), 'updateFields.status');
		const result = await run(ctx.sandbox, withExpression(parameters, 'updateFields.assignedTo'), {
			inputItems: [{ value: null }],
		});
		expect(result.error).toBeUndefined();
		const after = ctx.sandbox.control.state().leads.find((l) => l.id === before.id)!;
		expect(after).toMatchObject({
			status: before.status,
			assigned_to: before.assigned_to,
			vehicle_interest: 'Toyota Hilux 2024',
		});
	});

	test('Update lead takes a status from an expression', async () => {
		const id = alphaLeads(ctx.sandbox)[0].id;
		const result = await run(ctx.sandbox, withExpression(updateLead(), 'updateFields.status'), {
			inputItems: [{ value: 'qualified' }],
		});
		expect(jsonOf(result)[0]).toMatchObject({ id, status: 'qualified' });
	});
});
