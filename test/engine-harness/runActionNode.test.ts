// runActionNode: one action node after a Manual Trigger, run through n8n's WorkflowExecute.

import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';

import { runActionNode } from '../../harness/engine';
import { credentialsOf, useSandbox } from '../support/useSandbox';
import { testNodeTypes } from './testNodes';

describe('engine harness', () => {
	const ctx = useSandbox({ leads: 5, allowHttpWebhooks: true });

	describe('runActionNode', () => {
		it('sends the API key through the credential definition, not through node code', async () => {
			const result = await runActionNode({ limit: 3 }, credentialsOf(ctx.sandbox), {
				nodeType: 'test.agentsProbe',
				nodeTypes: testNodeTypes,
			});

			expect(result.status).toBe('success');
			const [item] = result.output('Lead Conversations');
			expect((item.json.agents as IDataObject[]).length).toBe(3);
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json.version).toBe(2);
			const requests = ctx.sandbox.control.requests();
			expect(requests).toEqual([
				expect.objectContaining({
					method: 'GET',
					path: '/v1/agents',
					query: { limit: '3' },
					status: 200,
					key: 'full',
				}),
			]);
		});

		it('feeds input items to the start node and keeps their pairing', async () => {
			const result = await runActionNode({ limit: 1 }, credentialsOf(ctx.sandbox), {
				nodeType: 'test.agentsProbe',
				nodeTypes: testNodeTypes,
				inputItems: [{ lead: 'a' }, { lead: 'b' }],
			});

			expect(result.output('Manual Trigger').map((item) => item.json)).toEqual([
				{ lead: 'a' },
				{ lead: 'b' },
			]);
			expect(
				result.output('Lead Conversations').map((item) => [item.json.input, item.pairedItem]),
			).toEqual([
				[{ lead: 'a' }, { item: 0 }],
				[{ lead: 'b' }, { item: 1 }],
			]);
			expect(ctx.sandbox.control.requests()).toHaveLength(2);
		});

		it('reports a rejected key as the NodeApiError n8n builds, after its one retry', async () => {
			const result = await runActionNode({}, credentialsOf(ctx.sandbox, 'revoked'), {
				nodeType: 'test.agentsProbe',
				nodeTypes: testNodeTypes,
			});

			expect(result.status).toBe('error');
			expect(result.error).toBeInstanceOf(NodeApiError);
			expect(result.error?.httpCode).toBe('401');
			expect(result.nodeError('Lead Conversations')).toBe(result.error);
			expect(result.output('Lead Conversations')).toEqual([]);
			// n8n-core re-authenticates and repeats a request once after a 401.
			expect(ctx.sandbox.control.requests().map((request) => request.status)).toEqual([401, 401]);
		});

		it('ends the run as n8n does when the last node throws under "continue" on error', async () => {
			const result = await runActionNode({}, credentialsOf(ctx.sandbox), {
				nodeType: 'test.failing',
				nodeTypes: testNodeTypes,
				continueOnFail: true,
			});

			// n8n-core keeps the last node's error as the execution's outcome.
			expect(result.status).toBe('error');
			expect(result.error).toBe(result.nodeError('Lead Conversations'));
			expect(result.error).toBeInstanceOf(NodeOperationError);
		});

		it('carries workflow static data into and out of a run', async () => {
			const credentials = credentialsOf(ctx.sandbox);
			const options = { nodeType: 'test.agentsProbe', nodeTypes: testNodeTypes };
			const first = await runActionNode({}, credentials, options);
			const second = await runActionNode({}, credentials, {
				...options,
				staticData: first.staticData,
			});

			expect(first.staticData).toEqual({ 'node:Lead Conversations': { runs: 1 } });
			expect(second.staticData).toEqual({ 'node:Lead Conversations': { runs: 2 } });
		});

		it("captures what n8n's loggers write, and the key is not among it", async () => {
			const result = await runActionNode({}, credentialsOf(ctx.sandbox, 'revoked'), {
				nodeType: 'test.agentsProbe',
				nodeTypes: testNodeTypes,
			});

			expect(result.logs).toEqual(
				expect.arrayContaining([
					expect.stringContaining('probing agents'),
					expect.stringContaining('Running node "Lead Conversations" finished with error'),
				]),
			);
			expect(result.logs.join('\n')).not.toContain(ctx.sandbox.keys.revoked);
		});
	});
});
