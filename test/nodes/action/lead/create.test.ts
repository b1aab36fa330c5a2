import { apiRequests, jsonOf, pairedOf, run, useSandbox, operationRunner } from '../helpers';
import { expectRefusedBeforeSending, refusals, withExpression } from '../refusals';

const ctx = useSandbox();
const runOperation = operationRunner(ctx, 'lead', 'create');

describe('Lead → Create', () => {
	test('creates a lead with every field, once, and returns it', async () => {
		const result = await runOperation({
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
		const result = await runOperation({ name: 'Ana', phone: '+14155550100' });
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
			const result = await runOperation({ name: 'María', phone: '+5491155550123', ...change });
			expect(result.status).toBe('error');
			expect(result.error?.message).toMatch(message);
			expect(result.error?.name).toBe('NodeOperationError');
			expect(apiRequests(ctx.sandbox)).toHaveLength(0);
		},
	);
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
			['Channel', 'channel', 'fax', `must be one of ${CHANNELS} (got "fax")`],
			['Channel', 'channel', 'Chat_App', `must be one of ${CHANNELS} (got "Chat_App")`],
			['Channel', 'channel', '', `must be one of ${CHANNELS} (got "")`],
			['Notes', 'additionalFields.notes', { text: 'x' }, 'must be text (got {"text":"x"})'],
			[
				'Vehicle Interest',
				'additionalFields.vehicleInterest',
				['Hilux'],
				'must be text (got ["Hilux"])',
			],
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
