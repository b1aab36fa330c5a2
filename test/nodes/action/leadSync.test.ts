import { alphaLeads, apiRequests, jsonOf, run, useSandbox } from './helpers';

const ctx = useSandbox({ leads: 150 });

const SYNC = {
	resource: 'lead',
	operation: 'getAll',
	returnAll: true,
	options: { onlyNewSinceLastRun: true, output: 'flat' },
};

describe('Lead → Get Many, Only New Since Last Run', () => {
	test('a scheduled sync gets every lead once across runs', async () => {
		const first = await run(ctx.sandbox, SYNC, { mode: 'trigger' });
		expect(first.error).toBeUndefined();
		expect(jsonOf(first)).toHaveLength(150);
		const mark = (first.staticData['node:Lead Conversations'] as { newLeadsSinceLastRun: object })
			.newLeadsSinceLastRun;
		const newest = alphaLeads(ctx.sandbox)
			.map((lead) => lead.created_at)
			.sort()
			.at(-1);
		expect(mark).toEqual({ 'all leads': { createdAt: newest, idsAtMark: expect.any(Array) } });

		const created = [
			ctx.sandbox.control.createChannelLead({ name: 'New One' }),
			ctx.sandbox.control.createChannelLead({ name: 'New Two' }),
		];
		ctx.sandbox.control.clearRequests();
		const second = await run(ctx.sandbox, SYNC, { mode: 'trigger', staticData: first.staticData });
		expect(
			jsonOf(second)
				.map((row) => row.id)
				.sort(),
		).toEqual(created.map((lead) => lead.id).sort());
		// The filter moved to the mark: one request instead of two pages.
		const [request] = apiRequests(ctx.sandbox, '/v1/leads');
		expect(request.query.created_after).toBe(newest);
		expect(apiRequests(ctx.sandbox, '/v1/leads')).toHaveLength(1);

		const third = await run(ctx.sandbox, SYNC, { mode: 'trigger', staticData: second.staticData });
		expect(jsonOf(third)).toEqual([]);
		expect(third.status).toBe('success');
	});

	test('leads created at exactly the mark are not returned twice', async () => {
		const first = await run(ctx.sandbox, SYNC, { mode: 'trigger' });
		const second = await run(ctx.sandbox, SYNC, { mode: 'trigger', staticData: first.staticData });
		// The service answers "on or after" the mark, so the newest lead comes back and is dropped.
		expect(apiRequests(ctx.sandbox, '/v1/leads').at(-1)?.query.created_after).toBeDefined();
		expect(jsonOf(second)).toEqual([]);
	});

	test('a failing page leaves the mark where it was', async () => {
		const first = await run(ctx.sandbox, SYNC, { mode: 'trigger' });
		ctx.sandbox.control.createChannelLead({ name: 'Missed If The Mark Moved' });
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 400, pathPrefix: '/v1/leads' });
		const failed = await run(ctx.sandbox, SYNC, { mode: 'trigger', staticData: first.staticData });
		expect(failed.status).toBe('error');
		expect(failed.staticData).toEqual(first.staticData);

		const retried = await run(ctx.sandbox, SYNC, {
			mode: 'trigger',
			staticData: failed.staticData,
		});
		expect(jsonOf(retried).map((row) => row.name)).toEqual(['Missed If The Mark Moved']);
	});

	test('different filters keep separate marks', async () => {
		const qualified = { ...SYNC, filters: { status: 'qualified' } };
		const all = await run(ctx.sandbox, SYNC, { mode: 'trigger' });
		const firstQualified = await run(ctx.sandbox, qualified, {
			mode: 'trigger',
			staticData: all.staticData,
		});
		const expected = alphaLeads(ctx.sandbox).filter((lead) => lead.status === 'qualified').length;
		expect(jsonOf(firstQualified)).toHaveLength(expected);
		const marks = (firstQualified.staticData['node:Lead Conversations'] as IDataObjectLike)
			.newLeadsSinceLastRun;
		expect(Object.keys(marks as object).sort()).toEqual(['all leads', 'status=qualified']);
	});
});

type IDataObjectLike = Record<string, unknown>;
