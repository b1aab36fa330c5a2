// Lead → Assign's advisor rules: a lead goes to an available advisor whose rule it fits, else to
// an available advisor without a rule, else nowhere with an error; bad rule values are refused
// before any request.
import { randomUUID } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { apiRequests, jsonOf, operationRunner, ref, useSandbox } from '../helpers';

const ctx = useSandbox({ leads: 12 });
const runOperation = operationRunner(ctx, 'lead', 'assign');

const workflow = () => ({ workflowId: `wf-${randomUUID()}`, nodeId: 'assign-node' });
const stored = (id: string) => ctx.sandbox.control.state().leads.find((lead) => lead.id === id)!;

interface LeadShape {
	channel?: string;
	intent?: string;
	score?: number;
	vehicle_interest?: string | null;
}
const leadOf = (shape: LeadShape = {}) =>
	ctx.sandbox.control.createChannelLead({
		status: 'qualified',
		channel: 'web_form',
		intent: 'browsing',
		score: 75,
		vehicle_interest: 'Sedan',
		...shape,
	}).id;

/** Rows as n8n's Data Table node gives them: its own id beside the table's columns. */
const ROWS: IDataObject[] = [
	{
		id: 1,
		user_id: 'user_trucks',
		vehicle_words: 'hilux, Ranger',
		channels: null,
		min_score: null,
	},
	{ id: 2, user_id: 'user_market', channels: 'marketplace', intents: '', min_score: null },
	{ id: 3, user_id: 'user_hot', intents: ['purchase_30_days'], min_score: 80 },
	{ id: 4, user_id: 'user_any_a', channels: '', vehicle_words: null, min_score: 0 },
	{ id: 5, user_id: 'user_any_b' },
];

async function assignFromRows(
	leadId: string,
	rows: unknown,
	extra: IDataObject = {},
	wf = workflow(),
) {
	return await runOperation(
		{
			lead: ref('id', leadId),
			rosterSource: 'expression',
			rosterRows: '={{ $json.rows }}',
			...extra,
		},
		{ ...wf, inputItems: [{ rows } as IDataObject] },
	);
}

async function advisorFor(
	shape: LeadShape,
	rows: unknown = ROWS,
	extra: IDataObject = {},
	wf = workflow(),
) {
	const id = leadOf(shape);
	const result = await assignFromRows(id, rows, extra, wf);
	expect(result.error).toBeUndefined();
	expect(stored(id).assigned_to).toBe(jsonOf(result)[0].assigned_to);
	return jsonOf(result)[0].assigned_to;
}

describe('an advisor who fits', () => {
	test('each lead goes to the advisor whose rule it fits; words match any case, inside the interest', async () => {
		expect(await advisorFor({ vehicle_interest: 'Toyota HILUX 2024' })).toBe('user_trucks');
		expect(await advisorFor({ vehicle_interest: 'ford ranger xlt' })).toBe('user_trucks');
		expect(await advisorFor({ channel: 'marketplace' })).toBe('user_market');
		expect(await advisorFor({ intent: 'purchase_30_days', score: 80 })).toBe('user_hot');
	});

	test("every part of a rule must hold: 30-day intent with score 79 is not user_hot's", async () => {
		expect(await advisorFor({ intent: 'purchase_30_days', score: 79 })).toMatch(/^user_any_/);
	});

	test('a lead no rule fits goes to the advisors without a rule, in turn (min_score 0 and empty cells are no rule)', async () => {
		const wf = workflow();
		const given = [];
		for (let n = 0; n < 4; n++) given.push(await advisorFor({}, ROWS, {}, wf));
		expect(given).toEqual(['user_any_a', 'user_any_b', 'user_any_a', 'user_any_b']);
	});

	test('a lead two rules fit takes turns between those two only', async () => {
		const wf = workflow();
		const given = [];
		const shape = { channel: 'marketplace', vehicle_interest: 'Hilux' };
		for (let n = 0; n < 4; n++) given.push(await advisorFor(shape, ROWS, {}, wf));
		expect(given).toEqual(['user_trucks', 'user_market', 'user_trucks', 'user_market']);
	});

	test('weights hold among fitting advisors, and an away specialist hands their leads to the others who fit', async () => {
		const rows = [
			{ user_id: 'user_a', channels: 'marketplace', weight: 2 },
			{ user_id: 'user_b', channels: ['marketplace', 'phone'], weight: 1 },
			{ user_id: 'user_c', channels: 'marketplace', weight: 5, away: true },
			{ user_id: 'user_generalist' },
		];
		const wf = workflow();
		const counts: Record<string, number> = {};
		for (let n = 0; n < 30; n++) {
			const advisor = String(await advisorFor({ channel: 'marketplace' }, rows, {}, wf));
			counts[advisor] = (counts[advisor] ?? 0) + 1;
		}
		expect(counts).toEqual({ user_a: 20, user_b: 10 });
		rows[0].away = true;
		rows[1].away = true;
		expect(await advisorFor({ channel: 'marketplace' }, rows)).toBe('user_generalist');
	});

	test('Spread by Lead ID picks among those who fit, the same in every run', async () => {
		const rows = [
			{ user_id: 'user_a', channels: 'phone' },
			{ user_id: 'user_b', channels: 'phone' },
			{ user_id: 'user_c', channels: 'email' },
			{ user_id: 'user_d' },
		];
		for (let n = 0; n < 8; n++) {
			const id = leadOf({ channel: 'phone' });
			const picks = [];
			for (const order of [rows, [...rows].reverse()]) {
				const result = await assignFromRows(id, order, {
					turns: 'spread',
					options: { reassign: true },
				});
				picks.push(jsonOf(result)[0].assigned_to);
			}
			expect(['user_a', 'user_b']).toContain(picks[0]);
			expect(picks[1]).toBe(picks[0]);
		}
	});

	test('nobody fits and no one is without a rule: an error naming the lead and why, after one GET', async () => {
		const rows = [
			{ user_id: 'user_a', channels: 'phone' },
			{ user_id: 'user_b', min_score: 90 },
			{ user_id: 'user_c', away: true },
		];
		const id = leadOf({
			channel: 'email',
			intent: 'browsing',
			score: 60,
			vehicle_interest: 'Corolla',
		});
		ctx.sandbox.control.clearRequests();
		const result = await assignFromRows(id, rows);
		expect(result.error?.message).toBe(
			`Lead ${id} cannot be assigned: no available advisor is left (away: user_c; with a rule it ` +
				'does not fit (channel email, intent browsing, score 60, vehicle interest "Corolla"): ' +
				'user_a, user_b) [item 0]',
		);
		expect(apiRequests(ctx.sandbox).map((r) => r.method)).toEqual(['GET']);
		expect(stored(id).assigned_to).toBeNull();
	});

	/** Three advisors with the rules of the editor, as a node of `typeVersion` saves them. */
	const enteredAdvisors = (typeVersion: number) => {
		const shaped = (rule: IDataObject) => (typeVersion >= 1.2 ? { rule } : rule);
		return {
			advisor: [
				{
					userId: 'user_vans',
					weight: 1,
					away: false,
					...shaped({ channels: [], intents: [], minScore: 0, vehicleWords: 'van, Sprinter' }),
				},
				{
					userId: 'user_phone',
					...shaped({
						channels: ['phone', 'api'],
						intents: ['purchase_90_days'],
						minScore: 50,
						vehicleWords: '',
					}),
				},
				{ userId: 'user_rest' },
			],
		};
	};

	test.each([1, 1.1, 1.2])(
		'advisors entered in a node of version %p: channels, intents, Min Score and Vehicle Words',
		async (typeVersion) => {
			const advisors = enteredAdvisors(typeVersion);
			const run = async (shape: LeadShape) => {
				const result = await runOperation(
					{ lead: ref('id', leadOf(shape)), advisors },
					{ ...workflow(), typeVersion },
				);
				expect(result.error).toBeUndefined();
				return jsonOf(result)[0].assigned_to;
			};
			expect(await run({ vehicle_interest: 'Mercedes sprinter' })).toBe('user_vans');
			expect(await run({ channel: 'phone', intent: 'purchase_90_days', score: 50 })).toBe(
				'user_phone',
			);
			expect(await run({ channel: 'phone', intent: 'purchase_90_days', score: 49 })).toBe(
				'user_rest',
			);
		},
	);

	test('rows passed as n8n items, without .map(item => item.json), are read as their json', async () => {
		const items = ROWS.map((json, index) => ({ json, pairedItem: { item: index } }));
		expect(await advisorFor({ channel: 'marketplace' }, items)).toBe('user_market');
	});

	test('the empty item of Always Output Data is no advisor: an empty table is refused as empty', async () => {
		const id = leadOf();
		const result = await assignFromRows(id, [{ json: {}, pairedItem: { item: 0 } }]);
		expect(result.error?.message).toBe('Roster Rows is empty: add at least one advisor [item 0]');
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});
});

describe('rule values outside the specification are refused before any request', () => {
	test.each([
		[
			{ channels: 'marketplace, tiktok' },
			'Roster Rows (row 2) Channels has "tiktok": each must be one of chat_app, social_a, social_b, marketplace, web_form, email, phone, api',
		],
		[
			{ channels: 7 },
			'Roster Rows (row 2) Channels must be a list or comma-separated text (got 7)',
		],
		[
			{ intents: ['browsing', 'soon'] },
			'Roster Rows (row 2) Intents has "soon": each must be one of purchase_30_days, purchase_90_days, browsing, unknown',
		],
		[
			{ min_score: 101 },
			'Roster Rows (row 2) Min Score must be a whole number from 0 to 100 (got 101)',
		],
		[
			{ min_score: -1 },
			'Roster Rows (row 2) Min Score must be a whole number from 0 to 100 (got -1)',
		],
		[
			{ minScore: '80' },
			'Roster Rows (row 2) Min Score must be a whole number from 0 to 100 (got "80")',
		],
		[{ vehicle_words: [3] }, 'Roster Rows (row 2) Vehicle Words has 3: each must be text'],
	])('%p', async (rule, message) => {
		ctx.sandbox.control.clearRequests();
		const rows = [{ user_id: 'user_a' }, { user_id: 'user_b', ...rule }];
		const result = await assignFromRows(leadOf(), rows);
		expect(result.error?.message).toBe(`${message} [item 0]`);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});
});
