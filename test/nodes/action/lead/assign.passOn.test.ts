// Lead → Assign's Pass On and Skip Advisors: a lead handed to another advisor, never back to the
// one it had nor to anyone skipped, in both ways of taking turns, at the same fixed cost.
import { randomUUID } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { apiRequests, jsonOf, operationRunner, ref, useSandbox } from '../helpers';

const ctx = useSandbox({ leads: 12 });
const runOperation = operationRunner(ctx, 'lead', 'assign');
const runUpdate = operationRunner(ctx, 'lead', 'update');

const ADVISORS = ['user_ana', 'user_bruno', 'user_carla', 'user_dario'];
const roster = (ids: string[] = ADVISORS, extra: (id: string) => IDataObject = () => ({})) => ({
	advisors: { advisor: ids.map((userId) => ({ userId, ...extra(userId) })) },
});
const workflow = () => ({ workflowId: `wf-${randomUUID()}`, nodeId: 'assign-node' });
const leadOf = (assignedTo: string | null) =>
	ctx.sandbox.control.createChannelLead({ status: 'assigned', assigned_to: assignedTo }).id;
const stored = (id: string) => ctx.sandbox.control.state().leads.find((lead) => lead.id === id)!;
const requests = () => apiRequests(ctx.sandbox).map((r) => `${r.method} ${r.path}`);

async function assign(
	leadId: string,
	parameters: IDataObject,
	wf = workflow(),
	inputItems?: IDataObject[],
) {
	return await runOperation(
		{ lead: ref('id', leadId), ...roster(), ...parameters },
		{
			...wf,
			inputItems,
		},
	);
}

async function assigned(leadId: string, parameters: IDataObject, wf = workflow()) {
	const result = await assign(leadId, parameters, wf);
	expect(result.error).toBeUndefined();
	return jsonOf(result)[0];
}

describe('Pass On to Another Advisor', () => {
	test.each(['rotation', 'spread'])(
		'(%s) hands a lead to another advisor, never back, with one GET and one PATCH',
		async (turns) => {
			for (const current of ADVISORS) {
				const id = leadOf(current);
				ctx.sandbox.control.clearRequests();
				const output = await assigned(id, { turns, options: { passOn: true } });
				expect(requests()).toEqual([`GET /v1/leads/${id}`, `PATCH /v1/leads/${id}`]);
				expect(output.assigned_to).not.toBe(current);
				expect(ADVISORS).toContain(output.assigned_to);
				expect(stored(id).assigned_to).toBe(output.assigned_to);
				expect(output.assignment).toEqual({
					advisor: output.assigned_to,
					leftAsItWas: false,
					reason: 'passed on',
					previousAdvisor: current,
					passedOver: [current],
					handoffs: 1,
				});
			}
		},
	);

	test('a lead without an advisor is simply assigned: a first assignment, 0 hand-offs', async () => {
		const id = leadOf(null);
		const output = await assigned(id, { options: { passOn: true } });
		expect(output.assignment).toMatchObject({
			leftAsItWas: false,
			reason: 'assigned',
			previousAdvisor: null,
			passedOver: [],
			handoffs: 0,
		});
	});

	test('Skip Advisors from the trigger (missed_by) is never picked; handoffs counts every advisor passed over', async () => {
		const id = leadOf('user_bruno');
		const output = jsonOf(
			await assign(
				id,
				{ options: { passOn: true, skipAdvisors: '={{ $json.missed_by }}' } },
				workflow(),
				[{ missed_by: ['user_ana', 'user_bruno'], misses: 2 }],
			),
		)[0];
		expect(['user_carla', 'user_dario']).toContain(output.assigned_to);
		expect(output.assignment).toMatchObject({
			reason: 'passed on',
			previousAdvisor: 'user_bruno',
			passedOver: ['user_ana', 'user_bruno'],
			handoffs: 2,
		});
	});

	test.each([
		['a list', ['user_ana', ' user_carla ', '']],
		['JSON text of a list', '["user_ana", "user_carla"]'],
		['comma-separated text', ' user_ana , ,user_carla '],
	])('Skip Advisors as %s: trimmed, blanks ignored', async (_, skipAdvisors) => {
		const wf = workflow();
		const picked = new Set<unknown>();
		for (let n = 0; n < 6; n++) {
			const output = jsonOf(
				await assign(
					leadOf('user_dario'),
					{ options: { passOn: true, skipAdvisors: '={{ $json.skip }}' } },
					wf,
					[{ skip: skipAdvisors }],
				),
			)[0];
			picked.add(output.assigned_to);
			expect(output.assignment).toMatchObject({
				passedOver: ['user_ana', 'user_carla', 'user_dario'],
				handoffs: 3,
			});
		}
		expect([...picked]).toEqual(['user_bruno']);
	});

	test('Skip Advisors without Pass On: a new lead never goes to a skipped advisor', async () => {
		const wf = workflow();
		const given = [];
		for (let n = 0; n < 6; n++) {
			const output = await assigned(leadOf(null), { options: { skipAdvisors: 'user_ana' } }, wf);
			given.push(output.assigned_to);
		}
		expect(given).toEqual([
			'user_bruno',
			'user_carla',
			'user_dario',
			'user_bruno',
			'user_carla',
			'user_dario',
		]);
	});

	test('no one left: an error naming the lead and why, after one GET, the lead unchanged', async () => {
		const id = leadOf('user_carla');
		ctx.sandbox.control.clearRequests();
		const result = await assign(id, {
			...roster(ADVISORS, (userId) => ({ away: userId === 'user_dario' })),
			options: { passOn: true, skipAdvisors: 'user_ana, user_bruno' },
		});
		expect(result.error?.message).toBe(
			`Lead ${id} cannot be passed on: no available advisor is left ` +
				'(passed over: user_ana, user_bruno, user_carla; away: user_dario) [item 0]',
		);
		expect(requests()).toEqual([`GET /v1/leads/${id}`]);
		expect(stored(id).assigned_to).toBe('user_carla');
	});

	test('Skip Advisors leaving no one is refused before any request', async () => {
		ctx.sandbox.control.clearRequests();
		const result = await assign(leadOf('user_ana'), {
			...roster(['user_ana', 'user_bruno']),
			options: { passOn: true, skipAdvisors: 'user_ana,user_bruno' },
		});
		expect(result.error?.message).toBe(
			'Skip Advisors (user_ana, user_bruno) leaves no available advisor in the roster [item 0]',
		);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});

	test.each([
		['passOn', 'yes', 'Pass On to Another Advisor must be true or false (got "yes")'],
		[
			'skipAdvisors',
			42,
			'Skip Advisors must be user IDs, as a list or comma-separated text (got 42)',
		],
		['skipAdvisors', ['user_a', 7], 'Skip Advisors (entry 2) must be a user ID (got 7)'],
		['skipAdvisors', 'user_a, user b', 'Skip Advisors (entry 2) is not a valid ID (got "user b")'],
	])('Options %s %p is refused before any request', async (option, value, message) => {
		ctx.sandbox.control.clearRequests();
		const parameters = { options: { [option]: '={{ $json.value }}' } };
		const result = await assign(leadOf('user_ana'), parameters, workflow(), [{ value }]);
		expect(result.error?.message).toBe(`${message} [item 0]`);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});
});

describe('turns stay fair and deterministic over the eligible advisors', () => {
	test.each(['rotation', 'spread'])(
		'(%s) 8 concurrent runs passing on one lead give it one new advisor',
		async (turns) => {
			const wf = workflow();
			const id = leadOf('user_ana');
			// Every GET answers late, so all 8 runs read the lead before any of them writes it; long
			// enough for runs that start apart on a busy machine.
			ctx.sandbox.control.injectFaults({
				kind: 'delay',
				delayMs: 1500,
				method: 'GET',
				probability: 1,
			});
			const outputs = await Promise.all(
				Array.from(
					{ length: 8 },
					async () => await assigned(id, { turns, options: { passOn: true } }, wf),
				),
			);
			ctx.sandbox.control.clearFaults();
			const advisors = new Set(outputs.map((output) => output.assigned_to));
			expect(advisors.size).toBe(1);
			expect(advisors.has('user_ana')).toBe(false);
			expect(stored(id).assigned_to).toBe([...advisors][0]);
		},
	);

	test('Take Turns: passing on 60 leads from user_ana spreads them 20/20/20 over the others, in turn', async () => {
		const wf = workflow();
		const given: string[] = [];
		for (let n = 0; n < 60; n++) {
			const output = await assigned(leadOf('user_ana'), { options: { passOn: true } }, wf);
			given.push(String(output.assigned_to));
		}
		expect(given.slice(0, 6)).toEqual([
			'user_bruno',
			'user_carla',
			'user_dario',
			'user_bruno',
			'user_carla',
			'user_dario',
		]);
		const counts = given.reduce<Record<string, number>>(
			(all, advisor) => ({ ...all, [advisor]: (all[advisor] ?? 0) + 1 }),
			{},
		);
		expect(counts).toEqual({ user_bruno: 20, user_carla: 20, user_dario: 20 });
	});

	test('Take Turns: leads passed on between first assignments keep every advisor within one lead', async () => {
		const wf = workflow();
		const given: Record<string, number> = {};
		for (let n = 0; n < 40; n++) {
			const current = n % 2 === 0 ? null : ADVISORS[n % 4];
			const output = await assigned(leadOf(current), { options: { passOn: true } }, wf);
			given[String(output.assigned_to)] = (given[String(output.assigned_to)] ?? 0) + 1;
		}
		const counts = Object.values(given);
		expect(counts.reduce((a, b) => a + b, 0)).toBe(40);
		expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(2);
	});

	test('Spread by Lead ID: the same lead, roster and exclusions pick the same advisor in every run', async () => {
		const ids = Array.from({ length: 12 }, () => leadOf('user_ana'));
		const parameters = { turns: 'spread', options: { passOn: true, skipAdvisors: 'user_bruno' } };
		const first: unknown[] = [];
		for (const id of ids) first.push((await assigned(id, parameters)).assigned_to);
		expect(first).not.toContain('user_ana');
		expect(first).not.toContain('user_bruno');
		expect(new Set(first).size).toBe(2);
		// Put every lead back with user_ana and pass them on again, in reverse, from other workflows.
		for (const id of ids) {
			await runUpdate({ lead: ref('id', id), updateFields: { assignedTo: 'user_ana' } });
			expect(stored(id).assigned_to).toBe('user_ana');
		}
		const again: unknown[] = [];
		for (const id of [...ids].reverse())
			again.unshift((await assigned(id, parameters)).assigned_to);
		expect(again).toEqual(first);
	});
});
