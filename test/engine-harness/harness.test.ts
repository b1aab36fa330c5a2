import { createHash, createHmac } from 'node:crypto';

import {
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type ITriggerFunctions,
	type ITriggerResponse,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import {
	createNodeTypes,
	createTriggerHarness,
	MANUAL_TRIGGER_NODE_TYPE,
	NO_OP_NODE_TYPE,
	runActionNode,
	runWorkflow,
	startTestSandbox,
	startWebhookReceiver,
	type RunningSandbox,
} from '../../harness/engine';
import { n8nEngine } from '../compat/engine';
import { ManualTrigger } from '../../harness/engine/nodeTypes';

/** Test-only action node: one authenticated GET per item, nothing else. */
class AgentsProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agents Probe',
		name: 'agentsProbe',
		group: ['transform'],
		version: [1, 2],
		description: 'Lists agents',
		defaults: { name: 'Agents Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'leadConversationsApi', required: true }],
		properties: [{ displayName: 'Limit', name: 'limit', type: 'number', default: 2 }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('leadConversationsApi');
		const counter = this.getWorkflowStaticData('node');
		counter.runs = ((counter.runs as number | undefined) ?? 0) + 1;
		this.logger.info('probing agents', { node: this.getNode().name });
		const output: INodeExecutionData[] = [];
		for (const [itemIndex, item] of this.getInputData().entries()) {
			const response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'leadConversationsApi',
				{ url: `${baseUrl}/agents`, qs: { limit: this.getNodeParameter('limit', itemIndex) } },
			)) as IDataObject;
			output.push({
				json: { input: item.json, agents: response.data, version: this.getNode().typeVersion },
				pairedItem: { item: itemIndex },
			});
		}
		return [output];
	}
}

/** Test-only node that fails with a chosen error. */
class Failing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Failing',
		name: 'failing',
		group: ['transform'],
		version: 1,
		description: 'Fails',
		defaults: { name: 'Failing' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		throw new NodeOperationError(this.getNode(), 'Lead name is required', {
			description: 'Item 0 has no name',
			itemIndex: 0,
		});
	}
}

/** Test-only trigger: registers a subscription at the service and echoes what it receives. */
class EchoTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Echo Trigger',
		name: 'echoTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Echoes deliveries',
		defaults: { name: 'Echo Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'leadConversationsApi', required: true }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			{ displayName: 'Events', name: 'events', type: 'string', default: 'lead.created' },
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return this.getWorkflowStaticData('node').webhookId !== undefined;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('leadConversationsApi');
				const created = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					'leadConversationsApi',
					{
						method: 'POST',
						url: `${baseUrl}/webhooks`,
						body: {
							url: this.getNodeWebhookUrl('default'),
							events: [this.getNodeParameter('events')],
							description: this.getWorkflow().name,
						},
						json: true,
					},
				)) as IDataObject;
				const staticData = this.getWorkflowStaticData('node');
				staticData.webhookId = created.id;
				staticData.webhookSecret = created.secret;
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('leadConversationsApi');
				await this.helpers.httpRequestWithAuthentication.call(this, 'leadConversationsApi', {
					method: 'DELETE',
					url: `${baseUrl}/webhooks/${String(staticData.webhookId)}`,
				});
				delete staticData.webhookId;
				delete staticData.webhookSecret;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		const secret = String(this.getWorkflowStaticData('node').webhookSecret ?? '');
		const expected = createHmac('sha256', secret).update(request.rawBody).digest('hex');
		if (request.header('X-Service-Signature') !== expected) {
			this.getResponseObject().status(401).send('Unauthorized').end();
			return { noWebhookResponse: true };
		}
		return {
			workflowData: [
				[
					{
						json: {
							body: this.getBodyData(),
							rawSha256: createHash('sha256').update(request.rawBody).digest('hex'),
						},
					},
				],
			],
		};
	}
}

/**
 * Test-only trigger node: the Manual Trigger's description, but firing through `trigger()` as
 * trigger nodes do. Emits one item telling the mode it was fired in, and counts its closings.
 */
const tickTrigger = {
	closed: 0,
	description: { ...new ManualTrigger().description, displayName: 'Tick', name: 'tickTrigger' },
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const tick = () => this.emit([this.helpers.returnJsonArray([{ firedIn: this.getMode() }])]);
		const closeFunction = async () => {
			tickTrigger.closed++;
		};
		return { manualTriggerFunction: async () => tick(), closeFunction };
	},
} satisfies INodeType & { closed: number };

const testNodeTypes = {
	'test.agentsProbe': new AgentsProbe(),
	'test.failing': new Failing(),
	'test.echoTrigger': new EchoTrigger(),
	'test.tickTrigger': tickTrigger,
};

// The n8n-nodes-base installed here is 2.x's; n8n 1.x's own cannot be installed
// (test/compat/README.md), so built-in nodes are run on the 2.x engine only.
const itOnN8n2 = n8nEngine.major === 1 ? it.skip : it;

describe('engine harness', () => {
	let sandbox: RunningSandbox;

	beforeAll(async () => {
		sandbox = await startTestSandbox({ leads: 5, allowHttpWebhooks: true });
	});

	afterAll(async () => {
		await sandbox.close();
	});

	beforeEach(() => {
		sandbox.control.reset({ leads: 5 });
	});

	describe('runActionNode', () => {
		it('sends the API key through the credential definition, not through node code', async () => {
			const result = await runActionNode(
				{ limit: 3 },
				{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
				{ nodeType: 'test.agentsProbe', nodeTypes: testNodeTypes },
			);

			expect(result.status).toBe('success');
			const [item] = result.output('Lead Conversations');
			expect((item.json.agents as IDataObject[]).length).toBe(3);
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json.version).toBe(2);
			const requests = sandbox.control.requests();
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
			const result = await runActionNode(
				{ limit: 1 },
				{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
				{
					nodeType: 'test.agentsProbe',
					nodeTypes: testNodeTypes,
					inputItems: [{ lead: 'a' }, { lead: 'b' }],
				},
			);

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
			expect(sandbox.control.requests()).toHaveLength(2);
		});

		it('reports a rejected key as the NodeApiError n8n builds, after its one retry', async () => {
			const result = await runActionNode(
				{},
				{ apiKey: sandbox.keys.revoked, baseUrl: sandbox.baseUrl },
				{ nodeType: 'test.agentsProbe', nodeTypes: testNodeTypes },
			);

			expect(result.status).toBe('error');
			expect(result.error).toBeInstanceOf(NodeApiError);
			expect(result.error?.httpCode).toBe('401');
			expect(result.nodeError('Lead Conversations')).toBe(result.error);
			expect(result.output('Lead Conversations')).toEqual([]);
			// n8n-core re-authenticates and repeats a request once after a 401.
			expect(sandbox.control.requests().map((request) => request.status)).toEqual([401, 401]);
		});

		it('ends the run as n8n does when the last node throws under "continue" on error', async () => {
			const result = await runActionNode(
				{},
				{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
				{ nodeType: 'test.failing', nodeTypes: testNodeTypes, continueOnFail: true },
			);

			// n8n-core keeps the last node's error as the execution's outcome.
			expect(result.status).toBe('error');
			expect(result.error).toBe(result.nodeError('Lead Conversations'));
			expect(result.error).toBeInstanceOf(NodeOperationError);
		});

		it('carries workflow static data into and out of a run', async () => {
			const credentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
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
			const result = await runActionNode(
				{},
				{ apiKey: sandbox.keys.revoked, baseUrl: sandbox.baseUrl },
				{ nodeType: 'test.agentsProbe', nodeTypes: testNodeTypes },
			);

			expect(result.logs).toEqual(
				expect.arrayContaining([
					expect.stringContaining('probing agents'),
					expect.stringContaining('Running node "Lead Conversations" finished with error'),
				]),
			);
			expect(result.logs.join('\n')).not.toContain(sandbox.keys.revoked);
		});
	});

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
				{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
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
				{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
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
			const credentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
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
				{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
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

	describe('createTriggerHarness', () => {
		const parameters = { events: 'lead.created' };

		it('gives the node n8n-shaped production and test webhook URLs', () => {
			const production = createTriggerHarness(
				parameters,
				{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
				{ nodeType: 'test.echoTrigger', nodeTypes: testNodeTypes, webhookId: 'hook-1' },
			);
			const test = createTriggerHarness(
				parameters,
				{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
				{
					nodeType: 'test.echoTrigger',
					nodeTypes: testNodeTypes,
					webhookId: 'hook-2',
					isTest: true,
					webhookBaseUrl: 'https://automation.example.test',
				},
			);

			expect(production.webhookUrl).toBe('https://n8n.example.test/webhook/hook-1/webhook');
			expect(test.webhookUrl).toBe('https://automation.example.test/webhook-test/hook-2/webhook');
		});

		it('activates like n8n (checkExists, then create), keeps static data, and deactivates', async () => {
			const trigger = createTriggerHarness(
				parameters,
				{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
				{
					nodeType: 'test.echoTrigger',
					nodeTypes: testNodeTypes,
					workflowName: 'New leads to CRM',
				},
			);

			await trigger.activate();
			await trigger.activate();

			const [subscription] = sandbox.control.webhooks();
			expect(sandbox.control.webhooks()).toHaveLength(1);
			expect(subscription).toMatchObject({
				url: trigger.webhookUrl,
				events: ['lead.created'],
				description: 'New leads to CRM',
			});
			expect(trigger.staticData).toEqual({
				webhookId: subscription.id,
				webhookSecret: subscription.secret,
			});
			expect(sandbox.control.requests().map((request) => [request.method, request.key])).toEqual([
				['POST', 'full'],
			]);

			await trigger.deactivate();
			expect(sandbox.control.webhooks()).toEqual([]);
			expect(trigger.staticData).toEqual({});
		});

		it('hands webhook() exactly the delivered bytes and answers like n8n in onReceived mode', async () => {
			const trigger = createTriggerHarness(
				parameters,
				{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
				{
					nodeType: 'test.echoTrigger',
					nodeTypes: testNodeTypes,
				},
			);
			await trigger.activate();
			const secret = String(trigger.staticData.webhookSecret);
			const body = Buffer.from('{ "event":"lead.created",  "data": {"name":"José"} }\n', 'utf8');

			const accepted = await trigger.deliver({
				body,
				headers: {
					'Content-Type': 'application/json',
					'X-Service-Signature': createHmac('sha256', secret).update(body).digest('hex'),
				},
			});
			const rejected = await trigger.deliver({
				body,
				headers: { 'content-type': 'application/json', 'x-service-signature': 'not-it' },
			});

			expect(accepted.statusCode).toBe(200);
			// n8n 2.41 evaluates an unset responseData to its default and sends that text.
			expect(accepted.body).toBe('firstEntryJson');
			expect(accepted.answeredInWebhook).toBe(false);
			expect(accepted.runs).toEqual([
				[
					{
						json: {
							body: { event: 'lead.created', data: { name: 'José' } },
							rawSha256: createHash('sha256').update(body).digest('hex'),
						},
					},
				],
			]);
			expect(rejected).toMatchObject({
				statusCode: 401,
				body: 'Unauthorized',
				runs: [],
				noWebhookResponse: true,
			});
		});

		it('receives real deliveries from the service through a loopback receiver', async () => {
			const receiver = await startWebhookReceiver();
			try {
				const trigger = createTriggerHarness(
					parameters,
					{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
					{ nodeType: 'test.echoTrigger', nodeTypes: testNodeTypes, webhookBaseUrl: receiver.url },
				);
				receiver.attach(trigger);
				await trigger.activate();

				const lead = sandbox.control.createChannelLead({ name: 'Ana Souza' });
				await sandbox.control.whenDeliveriesSettled();

				expect(receiver.received).toHaveLength(1);
				const [delivery] = receiver.received;
				expect(delivery.result.statusCode).toBe(200);
				expect(delivery.result.runs[0][0].json.body).toMatchObject({
					event: 'lead.created',
					data: { id: lead.id, name: 'Ana Souza' },
				});
				expect(sandbox.control.deliveries()).toEqual([
					expect.objectContaining({ ok: true, status: 200 }),
				]);
			} finally {
				await receiver.close();
			}
		});
	});
});
