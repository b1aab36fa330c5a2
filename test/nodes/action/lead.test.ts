import { NodeConnectionTypes } from 'n8n-workflow';

import { n8nEngine } from '../../compat/engine';
import { ACTION_NODE_TYPE, MANUAL_TRIGGER_NODE_TYPE, runWorkflow } from '../../../harness/engine';
import {
	NODE,
	alphaLeads,
	apiRequests,
	credentialsOf,
	jsonOf,
	pairedOf,
	ref,
	run,
	useSandbox,
	visibleTrace,
} from './helpers';
import { expectRefusedBeforeSending, refusals, withExpression } from './refusals';

const ctx = useSandbox();

function firstLeadId(): string {
	return alphaLeads(ctx.sandbox)[0].id;
}

describe('Lead → Create', () => {
	test('creates a lead with every field, once, and returns it', async () => {
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'create',
			name: 'María Pérez',
			phone: '+5491155550123',
			channel: 'web_form',
			additionalFields: {
				email: 'maria@example.com',
				vehicleInterest: 'Toyota Hilux 2024',
				notes: 'Prefers WhatsApp',
			},
		});
		expect(result.error).toBeUndefined();
		const [lead] = jsonOf(result);
		expect(lead).toMatchObject({
			name: 'María Pérez',
			phone: '+5491155550123',
			email: 'maria@example.com',
			channel: 'web_form',
			vehicle_interest: 'Toyota Hilux 2024',
			status: 'new',
			score: 0,
			intent: 'unknown',
			assigned_to: null,
		});
		expect(lead).not.toHaveProperty('notes');
		expect(pairedOf(result)).toEqual([{ item: 0 }]);
		const stored = ctx.sandbox.control.state().leads.filter((l) => l.phone === '+5491155550123');
		expect(stored).toHaveLength(1);
		expect(stored[0].notes).toBe('Prefers WhatsApp');
		expect(apiRequests(ctx.sandbox).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'POST /v1/leads 201',
		]);
	});

	test('without a channel the lead is recorded as created through the interface', async () => {
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'create',
			name: 'Ana',
			phone: '+14155550100',
		});
		const [lead] = jsonOf(result);
		expect(lead).toMatchObject({ channel: 'api', email: null, vehicle_interest: null });
	});

	test.each([
		[{ phone: '5491155550123' }, /^Phone must be in E\.164 format.*\[item 0\]$/],
		[{ phone: '+54 9 11 5555 0123' }, /^Phone must be in E\.164 format/],
		[{ name: '  ' }, /^Name is required \[item 0\]$/],
		[
			{ additionalFields: { email: 'maria@' } },
			/^Email is not a valid email address \(got "maria@"\) \[item 0\]$/,
		],
	])(
		'bad input %p is refused before sending, naming the field and item',
		async (change, message) => {
			const result = await run(ctx.sandbox, {
				resource: 'lead',
				operation: 'create',
				name: 'María',
				phone: '+5491155550123',
				...change,
			});
			expect(result.status).toBe('error');
			expect(result.error?.message).toMatch(message);
			expect(result.error?.name).toBe('NodeOperationError');
			expect(apiRequests(ctx.sandbox)).toHaveLength(0);
		},
	);
});

describe('Lead → Get', () => {
	test('reads a lead by ID from the list or by ID mode', async () => {
		const id = firstLeadId();
		for (const mode of ['list', 'id'] as const) {
			const result = await run(ctx.sandbox, {
				resource: 'lead',
				operation: 'get',
				lead: ref(mode, id),
			});
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
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'get',
			lead: ref('id', foreign),
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toBe(`Lead ${foreign} not found in this organization`);
		expect(result.error?.description).toMatch(/^HTTP 404 lead_not_found: /);
		expect(visibleTrace(result)).not.toContain(ctx.sandbox.keys.full);
	});

	test.each(['conv_abc', 'abc', 'lead_a b'])(
		'a typed ID %p with the wrong prefix is flagged by n8n before the run; nothing is sent',
		async (id) => {
			await expect(
				run(ctx.sandbox, { resource: 'lead', operation: 'get', lead: ref('id', id) }),
			).rejects.toThrow(
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

describe('Lead → Update', () => {
	test('changes status, advisor, vehicle interest and notes in one PATCH', async () => {
		const id = firstLeadId();
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'update',
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

	test('Unassign sends assigned_to null and Fields to Clear send null', async () => {
		const id = firstLeadId();
		await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'update',
			lead: ref('id', id),
			updateFields: { assignedTo: 'user_7', vehicleInterest: 'Hilux', notes: 'x' },
		});
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'update',
			lead: ref('id', id),
			updateFields: { unassign: true, clearFields: ['vehicle_interest', 'notes'] },
		});
		expect(jsonOf(result)[0]).toMatchObject({ assigned_to: null, vehicle_interest: null });
		const stored = ctx.sandbox.control.state().leads.find((l) => l.id === id)!;
		expect(stored).toMatchObject({ assigned_to: null, vehicle_interest: null, notes: null });
	});

	test('fields not given stay unchanged', async () => {
		const before = alphaLeads(ctx.sandbox)[0];
		await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'update',
			lead: ref('id', before.id),
			updateFields: { status: 'lost' },
		});
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
		[{ unassign: true, assignedTo: 'user_1' }, /^Assigned To and Unassign are both set/],
		[{ notes: 'x', clearFields: ['notes'] }, /^Notes is both set and in Fields to Clear/],
		[{ assignedTo: '  ' }, /^Assigned To is empty/],
	])(
		'contradictory or empty update %p is refused before sending',
		async (updateFields, message) => {
			const result = await run(ctx.sandbox, {
				resource: 'lead',
				operation: 'update',
				lead: ref('id', firstLeadId()),
				updateFields,
			});
			expect(result.error?.message).toMatch(message);
			expect(apiRequests(ctx.sandbox)).toHaveLength(0);
		},
	);
});

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

describe('Lead → Create, values from expressions', () => {
	const CHANNELS = 'api, chat_app, social_a, social_b, marketplace, web_form, email, phone';
	const createLead = {
		resource: 'lead',
		operation: 'create',
		name: 'María',
		phone: '+5491155550123',
	};

	test.each(
		refusals([
			{
				field: 'Channel',
				parameter: 'channel',
				value: 'fax',
				message: `Channel must be one of ${CHANNELS} (got "fax")`,
			},
			{
				field: 'Channel',
				parameter: 'channel',
				value: 'Chat_App',
				message: `Channel must be one of ${CHANNELS} (got "Chat_App")`,
			},
			{
				field: 'Channel',
				parameter: 'channel',
				value: '',
				message: `Channel must be one of ${CHANNELS} (got "")`,
			},
			{
				field: 'Notes',
				parameter: 'additionalFields.notes',
				value: { text: 'x' },
				message: 'Notes must be text (got {"text":"x"})',
			},
			{
				field: 'Vehicle Interest',
				parameter: 'additionalFields.vehicleInterest',
				value: ['Hilux'],
				message: 'Vehicle Interest must be text (got ["Hilux"])',
			},
		]),
	)(
		'Create lead refuses $field $shown from an expression, naming $field and item 0, before any request',
		async (refusal) => {
			await expectRefusedBeforeSending(ctx.sandbox, createLead, refusal);
		},
	);

	test.each([
		['web_form', 'web_form'],
		['api', 'api'],
		[null, 'api'],
	])(
		'Create lead takes channel %p from an expression; the service records %p',
		async (value, recorded) => {
			const result = await run(ctx.sandbox, withExpression(createLead, 'channel'), {
				inputItems: [{ value }],
			});
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)[0].channel).toBe(recorded);
			expect(apiRequests(ctx.sandbox).map((r) => `${r.method} ${r.status}`)).toEqual(['POST 201']);
		},
	);

	test('Create lead takes a year given as a number as Vehicle Interest text', async () => {
		const result = await run(
			ctx.sandbox,
			withExpression(createLead, 'additionalFields.vehicleInterest'),
			{ inputItems: [{ value: 2024 }] },
		);
		expect(jsonOf(result)[0].vehicle_interest).toBe('2024');
	});
});

describe('Lead → Update, values from expressions', () => {
	const STATUSES = 'new, in_conversation, qualified, assigned, closed, lost';
	const updateLead = () => ({
		resource: 'lead',
		operation: 'update',
		lead: ref('id', firstLeadId()),
		updateFields: { vehicleInterest: 'Toyota Hilux 2024' },
	});

	test.each(
		refusals([
			{
				field: 'Status',
				parameter: 'updateFields.status',
				value: 'won',
				message: `Status must be one of ${STATUSES} (got "won")`,
			},
			{
				field: 'Status',
				parameter: 'updateFields.status',
				value: 'QUALIFIED',
				message: `Status must be one of ${STATUSES} (got "QUALIFIED")`,
			},
			{
				field: 'Unassign',
				parameter: 'updateFields.unassign',
				value: 'yes',
				message: 'Unassign must be true or false (got "yes")',
			},
			{
				field: 'Assigned To',
				parameter: 'updateFields.assignedTo',
				value: '   ',
				message: 'Assigned To is empty: enter a user ID, or use Unassign instead',
			},
			{
				field: 'Assigned To',
				parameter: 'updateFields.assignedTo',
				value: { id: 'user_42' },
				message: 'Assigned To must be text (got {"id":"user_42"})',
			},
			{
				field: 'Fields to Clear',
				parameter: 'updateFields.clearFields',
				value: 'notes',
				message: 'Fields to Clear must be a list (got "notes")',
			},
			{
				field: 'Fields to Clear',
				parameter: 'updateFields.clearFields',
				value: ['notes', 'email'],
				message: 'Fields to Clear (entry 2) must be one of notes, vehicle_interest (got "email")',
			},
			{
				field: 'Notes',
				parameter: 'updateFields.notes',
				value: true,
				message: 'Notes must be text (got true)',
			},
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
		const id = firstLeadId();
		const result = await run(ctx.sandbox, withExpression(updateLead(), 'updateFields.status'), {
			inputItems: [{ value: 'qualified' }],
		});
		expect(jsonOf(result)[0]).toMatchObject({ id, status: 'qualified' });
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
