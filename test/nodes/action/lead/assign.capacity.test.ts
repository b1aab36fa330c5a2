// Lead → Assign's Capacity and Least Loaded turns: each advisor's leads in status assigned counted
// from the service once per run (whoever assigned them), kept up to date within the run, full
// advisors passed over, the three choices when everyone is full, and what a run costs.
import { randomUUID } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { apiRequests, jsonOf, operationRunner, pages, ref, useSandbox } from '../helpers';

const ctx = useSandbox({ leads: 12 });
const runOperation = operationRunner(ctx, 'lead', 'assign');
const runUpdate = operationRunner(ctx, 'lead', 'update');

const workflow = () => ({ workflowId: `wf-${randomUUID()}`, nodeId: 'assign-node' });
const state = () => ctx.sandbox.control.state();
const stored = (id: string) => state().leads.find((lead) => lead.id === id)!;
const newLead = () => ctx.sandbox.control.createChannelLead({ status: 'qualified' }).id;
/** Leads a person gave an advisor: written straight into the service. */
const givenByHand = (userId: string, count: number) => {
	for (let n = 0; n < count; n++) {
		ctx.sandbox.control.createChannelLead({ status: 'assigned', assigned_to: userId });
	}
};
/** What the service holds: leads in status assigned of the advisor (org_alpha, the key's). */
const heldBy = (userId: string) =>
	state().leads.filter(
		(lead) =>
			lead.organization_id === 'org_alpha' &&
			lead.status === 'assigned' &&
			lead.assigned_to === userId,
	).length;
const assignedInService = () =>
	state().leads.filter((lead) => lead.organization_id === 'org_alpha' && lead.status === 'assigned')
		.length;
const requests = () => apiRequests(ctx.sandbox).map((r) => `${r.method} ${r.path}`);
const loadReads = () =>
	apiRequests(ctx.sandbox).filter((r) => r.method === 'GET' && r.path === '/v1/leads');

/** One run of the node over one item per lead, the roster given as Data Table rows. */
async function assignAll(leadIds: string[], rows: IDataObject[], extra: IDataObject = {}) {
	return await runOperation(
		{
			lead: ref('id', '={{ $json.id }}'),
			rosterSource: 'expression',
			rosterRows: '={{ $json.rows }}',
			...extra,
		},
		{ ...workflow(), inputItems: leadIds.map((id) => ({ id, rows }) as IDataObject) },
	);
}

async function assigned(leadIds: string[], rows: IDataObject[], extra: IDataObject = {}) {
	const result = await assignAll(leadIds, rows, extra);
	expect(result.error).toBeUndefined();
	return jsonOf(result);
}

describe('Capacity', () => {
	test('counts from the service what a person assigned, passes over the full advisor, says the load', async () => {
		givenByHand('user_ana', 2);
		const other = newLead();
		expect(
			(
				await runUpdate({
					lead: ref('id', other),
					updateFields: { status: 'assigned', assignedTo: 'user_bruno' },
				})
			).error,
		).toBeUndefined();
		const anaBefore = heldBy('user_ana');
		const brunoBefore = heldBy('user_bruno');
		const id = newLead();
		ctx.sandbox.control.clearRequests();
		const [output] = await assigned(
			[id],
			[
				{ user_id: 'user_ana', capacity: anaBefore },
				{ user_id: 'user_bruno', capacity: '5' },
			],
		);
		expect(output.assigned_to).toBe('user_bruno');
		expect(stored(id).assigned_to).toBe('user_bruno');
		expect(output.assignment).toMatchObject({
			reason: 'assigned',
			load: brunoBefore + 1,
			capacity: 5,
		});
		expect(output.assignment).toMatchObject({ load: heldBy('user_bruno') });
		expect(requests()).toEqual([`GET /v1/leads/${id}`, 'GET /v1/leads', `PATCH /v1/leads/${id}`]);
		expect(loadReads()[0].query).toMatchObject({ status: 'assigned', limit: '100' });
	});

	test('one count per run: the items of a run see each other, a second run counts again', async () => {
		const rows = [
			{ user_id: 'user_ana', capacity: 1 },
			{ user_id: 'user_bruno', capacity: 1 },
			{ user_id: 'user_carla' },
		];
		const ids = [newLead(), newLead(), newLead(), newLead()];
		const first = await assigned(ids, rows);
		expect(first.map((lead) => lead.assigned_to)).toEqual([
			'user_ana',
			'user_bruno',
			'user_carla',
			'user_carla',
		]);
		expect(first.map((lead) => (lead.assignment as IDataObject).load)).toEqual([1, 1, 1, 2]);
		expect(loadReads()).toHaveLength(pages(assignedInService() - ids.length));

		ctx.sandbox.control.clearRequests();
		const [next] = await assigned([newLead()], rows);
		expect(next.assigned_to).toBe('user_carla');
		expect(next.assignment).toMatchObject({ load: 3 });
		expect(loadReads()).toHaveLength(pages(assignedInService() - 1));
	});

	test('Pass On takes the lead off its advisor: room for them later in the same run', async () => {
		const held = ctx.sandbox.control.createChannelLead({
			status: 'assigned',
			assigned_to: 'user_ana',
		}).id;
		const rows = [
			{ user_id: 'user_ana', capacity: 1 },
			{ user_id: 'user_bruno', capacity: 3 },
		];
		const outputs = await assigned([held, newLead()], rows, {
			turns: 'leastLoaded',
			options: { passOn: true },
		});
		expect(outputs.map((lead) => lead.assigned_to)).toEqual(['user_bruno', 'user_ana']);
		expect(outputs[1].assignment).toMatchObject({ load: 1, capacity: 1 });
		expect(heldBy('user_ana')).toBe(1);
	});

	test('requests per run: max(1, ⌈A/100⌉) + 2 with a capacity, 2 without', async () => {
		givenByHand('user_elsewhere', 230);
		const total = assignedInService();
		const rows = [{ user_id: 'user_ana', capacity: 10 }, { user_id: 'user_bruno' }];
		ctx.sandbox.control.clearRequests();
		await assigned([newLead()], rows);
		expect(requests()).toHaveLength(Math.ceil(total / 100) + 2);
		expect(loadReads()).toHaveLength(Math.ceil(total / 100));

		ctx.sandbox.control.clearRequests();
		await assigned([newLead()], [{ user_id: 'user_ana' }, { user_id: 'user_bruno' }]);
		expect(requests()).toHaveLength(2);
	});

	test('a lead that keeps its advisor costs no count', async () => {
		const held = ctx.sandbox.control.createChannelLead({
			status: 'assigned',
			assigned_to: 'user_ana',
		}).id;
		ctx.sandbox.control.clearRequests();
		const [output] = await assigned([held], [{ user_id: 'user_bruno', capacity: 2 }]);
		expect(output.assignment).toMatchObject({
			leftAsItWas: true,
			reason: 'already had an advisor',
		});
		expect(requests()).toEqual([`GET /v1/leads/${held}`]);
	});
});

describe('When Everyone Is Full', () => {
	const fullRows = () => {
		givenByHand('user_ana', 2);
		givenByHand('user_bruno', 1);
		return [
			{ user_id: 'user_ana', capacity: heldBy('user_ana'), weight: 3 },
			{ user_id: 'user_bruno', capacity: heldBy('user_bruno') },
		];
	};

	test('Assign the Least Loaded (default): no lead left behind, and the output says so', async () => {
		const rows = fullRows();
		// Ana's weight 3 wins a tie.
		const least = heldBy('user_ana') <= heldBy('user_bruno') ? 'user_ana' : 'user_bruno';
		const id = newLead();
		const [output] = await assigned([id], rows);
		expect(output.assigned_to).toBe(least);
		expect(stored(id).assigned_to).toBe(least);
		expect((output.assignment as IDataObject).reason).toMatch(
			/^assigned \(the least loaded, as everyone who fits is full \(user_ana \d+ of \d+, user_bruno \d+ of \d+\)\)$/,
		);
	});

	test('Leave Unassigned: the lead is output unchanged with the reason, nothing written', async () => {
		const rows = fullRows();
		const id = newLead();
		const before = stored(id);
		ctx.sandbox.control.clearRequests();
		const [output] = await assigned([id], rows, { options: { whenFull: 'leave' } });
		expect(stored(id)).toEqual(before);
		expect(output.assigned_to ?? null).toBeNull();
		expect(output.assignment).toMatchObject({ advisor: null, leftAsItWas: true });
		expect((output.assignment as IDataObject).reason).toMatch(
			/^left unassigned: everyone who fits is full \(user_ana/,
		);
		expect(requests().filter((r) => r.startsWith('PATCH'))).toEqual([]);
	});

	test('Stop With an Error: the item fails naming who is full, nothing written', async () => {
		const rows = fullRows();
		const id = newLead();
		ctx.sandbox.control.clearRequests();
		const result = await assignAll([id], rows, { options: { whenFull: 'error' } });
		expect(result.error?.message).toMatch(
			new RegExp(`^Lead ${id} cannot be assigned: everyone who fits is full \\(user_ana`),
		);
		expect(stored(id).assigned_to).toBeNull();
		expect(requests().filter((r) => r.startsWith('PATCH'))).toEqual([]);
	});
});

describe('Least Loaded turns', () => {
	test('fewest assigned leads first; a tie goes to the higher weight, then the roster order', async () => {
		givenByHand('user_ana', 2);
		givenByHand('user_bruno', 1);
		givenByHand('user_carla', 1);
		const rows = [
			{ user_id: 'user_ana' },
			{ user_id: 'user_bruno' },
			{ user_id: 'user_carla', weight: 2 },
			{ user_id: 'user_dario' },
		];
		const held = rows.map((row) => heldBy(row.user_id));
		const outputs = await assigned([newLead(), newLead(), newLead()], rows, {
			turns: 'leastLoaded',
		});
		// Replays the rule on the counts the service held before the run.
		const expected: string[] = [];
		for (let n = 0; n < 3; n++) {
			let best = 0;
			for (let i = 1; i < rows.length; i++) {
				const weight = (i: number) => (rows[i] as IDataObject).weight ?? 1;
				if (held[i] < held[best] || (held[i] === held[best] && weight(i) > weight(best))) best = i;
			}
			expected.push(rows[best].user_id);
			held[best]++;
		}
		expect(outputs.map((lead) => lead.assigned_to)).toEqual(expected);
		expect(expected[0]).toBe('user_dario');
	});
});

describe('bad Capacity', () => {
	test.each([0, 1.5, -2, 'many', '3.0', true])(
		'Capacity %p is refused naming the row and the field, before any request',
		async (capacity) => {
			const result = await assignAll(
				[newLead()],
				[{ user_id: 'user_ana' }, { user_id: 'user_bruno', capacity }],
			);
			expect(result.error?.message).toMatch(
				/^Roster Rows \(row 2\) Capacity must be a whole number of at least 1/,
			);
			expect(apiRequests(ctx.sandbox)).toHaveLength(0);
		},
	);

	test('an entered advisor: Capacity under Shift and Capacity, checked the same way', async () => {
		const result = await runOperation({
			lead: ref('id', newLead()),
			advisors: {
				advisor: [{ userId: 'user_ana' }, { userId: 'user_bruno', shift: { capacity: 0 } }],
			},
		});
		expect(result.error?.message).toMatch(/^Advisors \(row 2\) Capacity must be a whole number/);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});
});

describe('entered advisors', () => {
	test('Shift and Capacity of an entered advisor: a full advisor is passed over', async () => {
		givenByHand('user_ana', 1);
		const id = newLead();
		const result = await runOperation(
			{
				lead: ref('id', id),
				advisors: {
					advisor: [
						{ userId: 'user_ana', shift: { capacity: heldBy('user_ana') } },
						{ userId: 'user_bruno', rule: {}, shift: { capacity: heldBy('user_bruno') + 1 } },
					],
				},
			},
			workflow(),
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({
			assigned_to: 'user_bruno',
			assignment: { load: heldBy('user_bruno'), capacity: heldBy('user_bruno') },
		});
	});
});

describe('runs at the same time in one process', () => {
	// Slow list reads widen the gap between a run's count and its write, as a loaded n8n does.
	const slowCounts = () =>
		ctx.sandbox.control.injectFaults({
			kind: 'delay',
			delayMs: 150,
			method: 'GET',
			pathPrefix: '/v1/leads',
			probability: 1,
		});
	afterEach(() => ctx.sandbox.control.clearFaults());

	test('six runs of six workflows at once never pass a cap while another advisor has room', async () => {
		const rows = [
			{ user_id: 'user_cap_a', capacity: heldBy('user_cap_a') + 2 },
			{ user_id: 'user_cap_b', capacity: heldBy('user_cap_b') + 2 },
			{ user_id: 'user_cap_c', capacity: heldBy('user_cap_c') + 2 },
		];
		const before = rows.map((row) => heldBy(row.user_id));
		slowCounts();
		const results = await Promise.all(
			Array.from({ length: 6 }, (_, n) =>
				assignAll([newLead()], rows, n % 2 === 0 ? { turns: 'leastLoaded' } : {}),
			),
		);
		expect(results.map((result) => result.error)).toEqual(Array(6).fill(undefined));
		expect(rows.map((row, n) => heldBy(row.user_id) - before[n])).toEqual([2, 2, 2]);
		const loads = results.map((result) => (jsonOf(result)[0].assignment as IDataObject).load);
		// Each run saw the others' writes: the loads it reports are those the service held.
		expect([...loads].sort()).toEqual(
			[...rows.flatMap((row, n) => [before[n] + 1, before[n] + 2])].sort(),
		);
	});

	test('two copies of one event at once: one advisor, the second copy leaves the lead as it is', async () => {
		const rows = [
			{ user_id: 'user_dup_a', capacity: heldBy('user_dup_a') + 1 },
			{ user_id: 'user_dup_b', capacity: heldBy('user_dup_b') + 1 },
		];
		const id = newLead();
		slowCounts();
		const [first, second] = await Promise.all([assignAll([id], rows), assignAll([id], rows)]);
		const outputs = [...jsonOf(first), ...jsonOf(second)];
		expect(outputs.map((lead) => lead.assigned_to)).toEqual([
			stored(id).assigned_to,
			stored(id).assigned_to,
		]);
		expect(outputs.filter((lead) => (lead.assignment as IDataObject).leftAsItWas)).toHaveLength(1);
		const patches = apiRequests(ctx.sandbox).filter(
			(r) => r.method === 'PATCH' && r.path === `/v1/leads/${id}`,
		);
		expect(patches).toHaveLength(1);
	});
});
