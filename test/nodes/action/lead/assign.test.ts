import { randomUUID } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { apiRequests, jsonOf, operationRunner, ref, useSandbox } from '../helpers';

const ctx = useSandbox({ leads: 24 });
const runOperation = operationRunner(ctx, 'lead', 'assign');

const ADVISORS = ['user_ana', 'user_bruno', 'user_carla', 'user_dario'];
const rows = (ids: string[], extra: (id: string) => IDataObject = () => ({})) =>
	ids.map((userId) => ({ userId, ...extra(userId) }));

/** A workflow of its own per test: turns are kept per workflow and node. */
function workflow() {
	const workflowId = `wf-${randomUUID()}`;
	return { workflowId, nodeId: 'assign-node' };
}

function newLead(): string {
	return ctx.sandbox.control.createChannelLead({ status: 'qualified' }).id;
}

function storedLead(id: string) {
	return ctx.sandbox.control.state().leads.find((lead) => lead.id === id)!;
}

async function assign(
	leadId: string,
	parameters: IDataObject,
	wf: { workflowId: string; nodeId: string },
) {
	const result = await runOperation(
		{ lead: ref('id', leadId), advisors: { advisor: rows(ADVISORS) }, ...parameters },
		wf,
	);
	expect(result.error).toBeUndefined();
	return jsonOf(result)[0];
}

const countBy = (values: string[]) =>
	values.reduce<Record<string, number>>((counts, value) => {
		counts[value] = (counts[value] ?? 0) + 1;
		return counts;
	}, {});

describe('Lead → Assign: fixed cost and one advisor per lead', () => {
	test.each([24, 5000])(
		'a lead without an advisor costs one GET and one PATCH with %i leads in the account, and gets status assigned',
		async (leads) => {
			ctx.sandbox.control.reset({ leads });
			const id = newLead();
			ctx.sandbox.control.clearRequests();
			const output = await assign(id, {}, workflow());
			expect(apiRequests(ctx.sandbox).map((r) => `${r.method} ${r.path}`)).toEqual([
				`GET /v1/leads/${id}`,
				`PATCH /v1/leads/${id}`,
			]);
			expect(output).toMatchObject({
				id,
				assigned_to: 'user_ana',
				status: 'assigned',
				assignment: { advisor: 'user_ana', leftAsItWas: false, reason: 'assigned' },
			});
			expect(storedLead(id)).toMatchObject({ assigned_to: 'user_ana', status: 'assigned' });
		},
	);

	test('a lead a person already assigned is left as it is with one GET, and returned with its advisor', async () => {
		const id = ctx.sandbox.control.createChannelLead({ assigned_to: 'user_manager_pick' }).id;
		ctx.sandbox.control.clearRequests();
		const output = await assign(id, {}, workflow());
		expect(apiRequests(ctx.sandbox).map((r) => r.method)).toEqual(['GET']);
		expect(output.assignment).toEqual({
			advisor: 'user_manager_pick',
			leftAsItWas: true,
			reason: 'already had an advisor',
			previousAdvisor: 'user_manager_pick',
			passedOver: [],
			handoffs: 0,
		});
		expect(storedLead(id).assigned_to).toBe('user_manager_pick');
	});

	test('a duplicate run and a retry of the same lead keep the first advisor', async () => {
		const wf = workflow();
		const id = newLead();
		const first = await assign(id, {}, wf);
		const second = await assign(id, {}, wf);
		const third = await assign(id, { turns: 'spread' }, workflow());
		expect(first.assigned_to).toBe('user_ana');
		expect([second.assigned_to, third.assigned_to]).toEqual(['user_ana', 'user_ana']);
		expect([second.assignment, third.assignment]).toMatchObject([
			{ leftAsItWas: true },
			{ leftAsItWas: true },
		]);
		expect(apiRequests(ctx.sandbox).filter((r) => r.method === 'PATCH')).toHaveLength(1);
	});

	test('Reassign gives a lead that has an advisor the roster pick; the same advisor again sends nothing', async () => {
		const id = ctx.sandbox.control.createChannelLead({ assigned_to: 'user_left_company' }).id;
		const roster = { advisors: { advisor: rows(['user_bruno']) } };
		const output = await assign(id, { ...roster, options: { reassign: true } }, workflow());
		expect(output).toMatchObject({
			assigned_to: 'user_bruno',
			assignment: { reason: 'reassigned' },
		});
		ctx.sandbox.control.clearRequests();
		const again = await assign(id, { ...roster, options: { reassign: true } }, workflow());
		expect(again.assignment).toMatchObject({ leftAsItWas: true });
		expect(apiRequests(ctx.sandbox).map((r) => r.method)).toEqual(['GET']);
	});

	test('Also Set Status to Assigned off sends only the advisor', async () => {
		const id = newLead();
		ctx.sandbox.control.clearRequests();
		await assign(id, { setStatus: false }, workflow());
		expect(storedLead(id)).toMatchObject({ assigned_to: 'user_ana', status: 'qualified' });
	});

	test.each(['rotation', 'spread'])(
		'8 concurrent runs for one lead (%s) give it one advisor, the same in every output',
		async (turns) => {
			const wf = workflow();
			const id = newLead();
			// Every GET answers late, so all 8 runs read the lead before any of them writes it.
			ctx.sandbox.control.injectFaults({
				kind: 'delay',
				delayMs: 150,
				method: 'GET',
				probability: 1,
			});
			const outputs = await Promise.all(
				Array.from({ length: 8 }, async () => await assign(id, { turns }, wf)),
			);
			const advisors = new Set(outputs.map((output) => output.assigned_to));
			expect(advisors.size).toBe(1);
			expect(storedLead(id).assigned_to).toBe([...advisors][0]);
			if (turns === 'rotation') {
				// One turn was used: the next lead goes to the next advisor.
				ctx.sandbox.control.clearFaults();
				expect((await assign(newLead(), { turns }, wf)).assigned_to).toBe('user_bruno');
			}
		},
	);
});

describe('Lead → Assign: fair turns in one process', () => {
	test('8 concurrent executions over 3 advisors: no advisor gets a second lead while another waits', async () => {
		const wf = workflow();
		const roster = { advisors: { advisor: rows(ADVISORS.slice(0, 3)) } };
		ctx.sandbox.control.injectFaults({
			kind: 'delay',
			delayMs: 100,
			method: 'GET',
			probability: 1,
		});
		const given: string[] = [];
		for (let round = 0; round < 3; round++) {
			const leads = Array.from({ length: 8 }, newLead);
			const outputs = await Promise.all(leads.map(async (id) => await assign(id, roster, wf)));
			given.push(...outputs.map((output) => String(output.assigned_to)));
			const counts = Object.values(countBy(given));
			expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
		}
		expect(countBy(given)).toEqual({ user_ana: 8, user_bruno: 8, user_carla: 8 });
	});

	test('weights 2, 1, 1 over 40 leads give exactly 20, 10, 10, and an away advisor gets none', async () => {
		const wf = workflow();
		const roster = {
			advisors: {
				advisor: [
					{ userId: 'user_ana', weight: 2 },
					{ userId: 'user_bruno', weight: 1 },
					{ userId: 'user_carla' },
					{ userId: 'user_dario', weight: 5, away: true },
				],
			},
		};
		const given: string[] = [];
		for (let index = 0; index < 40; index++) {
			given.push(String((await assign(newLead(), roster, wf)).assigned_to));
		}
		expect(countBy(given)).toEqual({ user_ana: 20, user_bruno: 10, user_carla: 10 });
	});

	test('a failed update gives the turn back', async () => {
		const wf = workflow();
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 404, method: 'PATCH', count: 1 });
		const result = await runOperation(
			{ lead: ref('id', newLead()), advisors: { advisor: rows(ADVISORS) } },
			wf,
		);
		expect(result.error?.message).toMatch(/404|not found/i);
		expect((await assign(newLead(), {}, wf)).assigned_to).toBe('user_ana');
	});
});

describe('Lead → Assign: spread by lead ID', () => {
	test('every workflow and order of runs picks the same advisor; marking one away moves only their leads', async () => {
		const ids = Array.from({ length: 16 }, newLead);
		const spread = { turns: 'spread' };
		const first = await Promise.all(
			ids.map(async (id) => String((await assign(id, spread, workflow())).assigned_to)),
		);
		expect(new Set(first).size).toBeGreaterThan(1);

		// Another workflow (as another process would), in reverse order, allowed to reassign:
		// it picks what the first did, so nothing is sent.
		ctx.sandbox.control.clearRequests();
		for (const id of [...ids].reverse()) {
			const output = await assign(id, { ...spread, options: { reassign: true } }, workflow());
			expect(output.assignment).toMatchObject({ leftAsItWas: true });
		}
		expect(apiRequests(ctx.sandbox).filter((r) => r.method === 'PATCH')).toHaveLength(0);

		const away = first[0];
		const roster = { advisors: { advisor: rows(ADVISORS, (id) => ({ away: id === away })) } };
		const after: string[] = [];
		for (const id of ids) {
			const output = await assign(
				id,
				{ ...spread, ...roster, options: { reassign: true } },
				workflow(),
			);
			after.push(String(output.assigned_to));
		}
		ids.forEach((_, index) => {
			if (first[index] === away) expect(after[index]).not.toBe(away);
			else expect(after[index]).toBe(first[index]);
		});
	});
});
