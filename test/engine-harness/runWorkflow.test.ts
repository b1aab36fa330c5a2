// runWorkflow: workflow JSON through n8n's WorkflowExecute, trigger start nodes and n8n's own nodes.

import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import {
	createNodeTypes,
	MANUAL_TRIGGER_NODE_TYPE,
	NO_OP_NODE_TYPE,
	runWorkflow,
} from '../../harness/engine';
import { n8nEngine } from '../compat/engine';
import { credentialsOf, useSandbox } from '../support/useSandbox';
import { testNodeTypes, tickTrigger } from './testNodes';

// The n8n-nodes-base installed here is 2.x's; n8n 1.x's own cannot be installed
// (test/compat/README.md), so built-in nodes are run on the 2.x engine only.
const itOnN8n2 = n8nEngine.major === 1 ? it.skip : it;

describe('engine harness', () => {
	const ctx = useSandbox({ leads: 5, allowHttpWebhooks: true });

	describe('runWorkflow', () => {
		it('runs workflow JSON with several nodes in connection order', async () => {
			const result = await runWorkflow(
				{
					nodes: [
						{ name: 'Start', type: MANUAL_TRIGGER_NODE_TYPE, parameters: {} },
						{ name: 'Agents', type: 'test.agentsProbe', typeVersion: 1, parameters: { limit: 1 } },
						{ name: 'Done', type: NO_OP_NODE_TYPE, parameters: {} },
					],
					connections: {
						Start: { main: [[{ node: 'Agents', type: NodeConnectionTypes.Main, index: 0 }]] },
						Agents: { main: [[{ node: 'Done', type: NodeConnectionTypes.Main, index: 0 }]] },
					},
				},
				credentialsOf(ctx.sandbox),
				{ nodeTypes: testNodeTypes },
			);

			expect(result.status).toBe('success');
			expect(result.output('Done')).toHaveLength(1);
			expect(result.output('Done')[0].json.version).toBe(1);
			expect(result.output('Unknown')).toEqual([]);
		});
		it('goes on past a node that throws when its On Error setting says continue', async () => {
			const result = await runWorkflow(
				{
					nodes: [
						{ name: 'Start', type: MANUAL_TRIGGER_NODE_TYPE, parameters: {} },
						{
							name: 'Failing',
							type: 'test.failing',
							parameters: {},
							onError: 'continueRegularOutput',
						},
						{ name: 'Done', type: NO_OP_NODE_TYPE, parameters: {} },
					],
					connections: {
						Start: { main: [[{ node: 'Failing', type: NodeConnectionTypes.Main, index: 0 }]] },
						Failing: { main: [[{ node: 'Done', type: NodeConnectionTypes.Main, index: 0 }]] },
					},
				},
				credentialsOf(ctx.sandbox),
				{ nodeTypes: testNodeTypes, inputItems: [{ lead: 'a' }] },
			);

			expect(result.status).toBe('success');
			expect(result.error).toBeUndefined();
			const failure = result.nodeError('Failing');
			expect(failure).toBeInstanceOf(NodeOperationError);
			expect(failure?.description).toBe('Item 0 has no name');
			expect(result.output('Done').map((item) => item.json)).toEqual([{ lead: 'a' }]);
		});

		it('fires a trigger start node once and starts a run that is not manual with what it emitted', async () => {
			const spec = {
				nodes: [
					{ name: 'Tick', type: 'test.tickTrigger', parameters: {} },
					{ name: 'Done', type: NO_OP_NODE_TYPE, parameters: {} },
				],
				connections: {
					Tick: { main: [[{ node: 'Done', type: NodeConnectionTypes.Main, index: 0 }]] },
				},
			};
			const credentials = credentialsOf(ctx.sandbox);
			const closedBefore = tickTrigger.closed;

			const scheduled = await runWorkflow(spec, credentials, {
				nodeTypes: testNodeTypes,
				mode: 'trigger',
			});
			// Fired once, then closed, as n8n closes a trigger after a manual firing.
			expect(tickTrigger.closed - closedBefore).toBe(1);
			// In a manual run WorkflowExecute fires the trigger itself.
			const manual = await runWorkflow(spec, credentials, { nodeTypes: testNodeTypes });

			expect(scheduled.status).toBe('success');
			expect(scheduled.output('Tick').map((item) => item.json)).toEqual([{ firedIn: 'manual' }]);
			expect(scheduled.output('Done').map((item) => item.json)).toEqual([{ firedIn: 'manual' }]);
			expect(manual.output('Done').map((item) => item.json)).toEqual([{ firedIn: 'manual' }]);
			// ... and only WorkflowExecute: one more firing, one more closing.
			expect(tickTrigger.closed - closedBefore).toBe(2);
		});

		itOnN8n2("runs n8n-nodes-base types as n8n-nodes-base's own node classes", async () => {
			const result = await runWorkflow(
				{
					nodes: [
						{
							name: 'Every hour',
							type: 'n8n-nodes-base.scheduleTrigger',
							typeVersion: 1.2,
							parameters: { rule: { interval: [{ field: 'hours' }] } },
						},
						{
							name: 'Stamp',
							type: 'n8n-nodes-base.set',
							typeVersion: 3.4,
							parameters: {
								assignments: {
									assignments: [
										{ id: 'a1', name: 'year', value: '={{ $json.Year }}', type: 'number' },
									],
								},
								options: {},
							},
						},
					],
					connections: {
						'Every hour': { main: [[{ node: 'Stamp', type: NodeConnectionTypes.Main, index: 0 }]] },
					},
				},
				credentialsOf(ctx.sandbox),
				{ mode: 'trigger' },
			);

			expect(result.status).toBe('success');
			// The item n8n's Schedule Trigger emits.
			const [fired] = result.output('Every hour');
			expect(Object.keys(fired.json)).toEqual([
				'timestamp',
				'Readable date',
				'Readable time',
				'Day of week',
				'Year',
				'Month',
				'Day of month',
				'Hour',
				'Minute',
				'Second',
				'Timezone',
			]);
			expect(result.output('Stamp').map((item) => item.json)).toEqual([
				{ year: Number(fired.json.Year) },
			]);
			const nodeTypes = createNodeTypes();
			for (const [type, file, className] of [
				['n8n-nodes-base.scheduleTrigger', 'Schedule/ScheduleTrigger', 'ScheduleTrigger'],
				['n8n-nodes-base.set', 'Set/Set', 'Set'],
			]) {
				// eslint-disable-next-line @typescript-eslint/no-require-imports
				const builtIn = require(`n8n-nodes-base/dist/nodes/${file}.node`)[className];
				expect(nodeTypes.getByName(type)).toBeInstanceOf(builtIn);
			}
			expect(() => nodeTypes.getByName('n8n-nodes-base.noSuchNode')).toThrow(
				'Unknown node type "n8n-nodes-base.noSuchNode"',
			);
		});
	});
});
