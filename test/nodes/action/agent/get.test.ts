import { alphaAgents, jsonOf, ref, useSandbox, operationRunner } from '../helpers';

const ctx = useSandbox();
const runOperation = operationRunner(ctx, 'agent', 'get');

describe('Agent → Get', () => {
	test('Get returns the agent with its configuration', async () => {
		const agent = alphaAgents(ctx.sandbox)[0];
		const result = await runOperation({ agent: ref('list', agent.id) });
		expect(jsonOf(result)[0]).toMatchObject({
			id: agent.id,
			name: agent.name,
			configuration: expect.any(Object),
		});
	});

	test('an unknown agent is "not found in this organization" (flat error shape)', async () => {
		const result = await runOperation({ agent: ref('id', 'agent_missing') });
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toBe('Agent agent_missing not found in this organization');
		expect(result.error?.description).toMatch(/^HTTP 404 not_found: /);
	});
});
