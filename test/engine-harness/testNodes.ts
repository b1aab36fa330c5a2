// Test-only node types the engine harness runs, so that its own behaviour (credentials, errors,
// static data, triggers, webhooks) is shown apart from the package's nodes.

import { createHash, createHmac } from 'node:crypto';

import {
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

import { ManualTrigger, testNodeDescription } from '../../harness/engine/nodeTypes';

/** Test-only action node: one authenticated GET per item, nothing else. */
class AgentsProbe implements INodeType {
	description = testNodeDescription('Agents Probe', 'agentsProbe', 'Lists agents', {
		version: [1, 2],
		credentials: [{ name: 'leadConversationsApi', required: true }],
		properties: [{ displayName: 'Limit', name: 'limit', type: 'number', default: 2 }],
	});

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
	description = testNodeDescription('Failing', 'failing', 'Fails');

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
export const tickTrigger = {
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

export const testNodeTypes = {
	'test.agentsProbe': new AgentsProbe(),
	'test.failing': new Failing(),
	'test.echoTrigger': new EchoTrigger(),
	'test.tickTrigger': tickTrigger,
};
