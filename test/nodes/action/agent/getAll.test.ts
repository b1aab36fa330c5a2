import { alphaAgents, apiRequests, jsonOf, useSandbox, operationRunner } from '../helpers';

const ctx = useSandbox();
const runOperation = operationRunner(ctx, 'agent', 'getAll');

describe('Agent → Get Many', () => {
	test.each(['active', 'inactive', 'draft'])('Get Many filtered by status %s', async (status) => {
		const result = await runOperation({ returnAll: true, filters: { status } });
		const expected = alphaAgents(ctx.sandbox).filter((agent) => agent.status === status);
		expect(expected.length).toBeGreaterThan(0);
		expect(
			jsonOf(result)
				.map((a) => a.id)
				.sort(),
		).toEqual(expected.map((a) => a.id).sort());
		expect(apiRequests(ctx.sandbox)[0].query).toEqual({ status, limit: '100' });
	});

	test('Get Many without a filter returns every agent, without configuration', async () => {
		const result = await runOperation({ returnAll: true });
		expect(jsonOf(result)).toHaveLength(alphaAgents(ctx.sandbox).length);
		expect(jsonOf(result).every((agent) => agent.configuration === undefined)).toBe(true);
	});

	test('Get Many with Limit 2 asks for 2', async () => {
		const result = await runOperation({ limit: 2 });
		expect(jsonOf(result)).toHaveLength(2);
		expect(apiRequests(ctx.sandbox)[0].query).toEqual({ limit: '2' });
	});
});
