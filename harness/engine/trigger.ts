import { randomUUID } from 'node:crypto';

import { HookContext, WebhookContext } from 'n8n-core';
import {
	UserError,
	Workflow,
	type ICredentialType,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeType,
	type IVersionedNodeType,
	type IWebhookData,
	type IWebhookDescription,
	type IWebhookResponseData,
	type IWorkflowExecuteAdditionalData,
	type WorkflowActivateMode,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { createAdditionalData, DEFAULT_INSTANCE_URL } from './additionalData';
import { createCredentialsHelper, nodeCredentials, type HarnessCredentials } from './credentials';
import { LeadConversationsSigningSecretApi } from '../../credentials/LeadConversationsSigningSecretApi.credentials';
import { captureLogs } from './logger';
import { createNodeTypes, latestVersion, TRIGGER_NODE_TYPE } from './nodeTypes';
import {
	answer,
	type DeliveredRequest,
	type DeliveryResult,
	incomingRequest,
	RecordedResponse,
} from './webhookHttp';

export type { DeliveredRequest, DeliveryResult } from './webhookHttp';

export interface TriggerHarness {
	/** The node's static data (`getWorkflowStaticData('node')`), kept between calls like n8n does. */
	readonly staticData: IDataObject;
	/** The whole workflow's static data. */
	readonly workflowStaticData: IDataObject;
	readonly node: INode;
	/** The URL n8n gives the node for its `default` webhook. */
	readonly webhookUrl: string;
	checkExists(): Promise<boolean>;
	create(): Promise<boolean>;
	delete(): Promise<boolean>;
	/** What n8n does on activation: checkExists, then create only when that says false. */
	activate(): Promise<void>;
	/** What n8n does on deactivation. */
	deactivate(): Promise<boolean>;
	deliver(request: DeliveredRequest): Promise<DeliveryResult>;
	/** Every line n8n's loggers wrote since the harness was created. */
	readonly logs: string[];
}

export interface TriggerHarnessOptions {
	/** The n8n instance address the webhook URLs are built on. */
	webhookBaseUrl?: string;
	/** "Listen for test event": webhook-test URLs, manual mode. */
	isTest?: boolean;
	workflowName?: string;
	nodeName?: string;
	webhookId?: string;
	staticData?: IDataObject;
	/** Node type to drive instead of the package trigger (for harness self-tests). */
	nodeType?: string;
	nodeTypes?: Record<string, INodeType | IVersionedNodeType>;
	credentialTypes?: Record<string, ICredentialType>;
	/** Chooses a Lead Conversations Signing Secret credential holding this secret. */
	signingSecretCredential?: string;
	/** The node's typeVersion as a saved workflow states it; the newest by default. */
	typeVersion?: number;
}

export const SIGNING_SECRET_CREDENTIAL_TYPE = 'leadConversationsSigningSecretApi';

/**
 * Drives a trigger node the way n8n's webhook service does: its `webhookMethods` run in n8n-core's
 * HookContext and `webhook()` runs in n8n-core's WebhookContext, one workflow object held across
 * calls so static data persists as it does between activation and deliveries.
 */
export function createTriggerHarness(
	parameters: INodeParameters,
	credentials: HarnessCredentials,
	options: TriggerHarnessOptions = {},
): TriggerHarness {
	const readLogs = captureLogs();
	const isTest = options.isTest === true;
	const mode: WorkflowExecuteMode = isTest ? 'manual' : 'trigger';
	const activation: WorkflowActivateMode = isTest ? 'manual' : 'activate';
	const nodeTypes = createNodeTypes(options.nodeTypes);
	const typeName = options.nodeType ?? TRIGGER_NODE_TYPE;
	const nodeType = nodeTypes.getByNameAndVersion(typeName);
	if (!nodeType) throw new UserError(`Unknown node type "${typeName}"`);

	const node: INode = {
		id: randomUUID(),
		name: options.nodeName ?? 'Lead Conversations Trigger',
		type: typeName,
		typeVersion: options.typeVersion ?? latestVersion(nodeTypes.getByName(typeName)),
		position: [0, 0],
		parameters: structuredClone(parameters),
		credentials: {
			...nodeCredentials(),
			...(options.signingSecretCredential === undefined
				? {}
				: {
						[SIGNING_SECRET_CREDENTIAL_TYPE]: {
							id: 'lead-conversations-signing-secret',
							name: 'Lead Conversations signing secret',
						},
					}),
		},
		webhookId: options.webhookId ?? randomUUID(),
	};
	const workflowId = `workflow-${randomUUID()}`;
	const workflow = new Workflow({
		id: workflowId,
		name: options.workflowName ?? 'Lead Conversations trigger workflow',
		nodes: [node],
		connections: {},
		active: !isTest,
		nodeTypes,
		staticData: structuredClone(options.staticData ?? {}),
		settings: { executionOrder: 'v1' },
	});

	const credentialsHelper = createCredentialsHelper(credentials, {
		types: {
			[SIGNING_SECRET_CREDENTIAL_TYPE]: new LeadConversationsSigningSecretApi(),
			...options.credentialTypes,
		},
		stored:
			options.signingSecretCredential === undefined
				? undefined
				: { [SIGNING_SECRET_CREDENTIAL_TYPE]: { signingSecret: options.signingSecretCredential } },
	});
	const baseAdditionalData = () =>
		createAdditionalData({
			credentialsHelper,
			instanceUrl: options.webhookBaseUrl ?? DEFAULT_INSTANCE_URL,
			workflowId,
		});

	const webhookDescription = defaultWebhook(nodeType);
	const webhookData = (additionalData: IWorkflowExecuteAdditionalData): IWebhookData => ({
		httpMethod: webhookDescription.httpMethod as IWebhookData['httpMethod'],
		node: node.name,
		path: webhookDescription.path,
		webhookDescription,
		workflowId,
		workflowExecuteAdditionalData: additionalData,
		webhookId: node.webhookId,
		isTest,
	});

	const hookContext = () => {
		const additionalData = baseAdditionalData();
		return new HookContext(
			workflow,
			node,
			additionalData,
			mode,
			activation,
			webhookData(additionalData),
		);
	};

	const runWebhookMethod = async (method: 'checkExists' | 'create' | 'delete') => {
		const webhookMethod = nodeType.webhookMethods?.[webhookDescription.name]?.[method];
		if (webhookMethod === undefined) {
			throw new UserError(`The node has no webhookMethods.${webhookDescription.name}.${method}`);
		}
		return (await webhookMethod.call(hookContext())) as boolean;
	};

	const harness: TriggerHarness = {
		get staticData() {
			return workflow.getStaticData('node', node);
		},
		get workflowStaticData() {
			return workflow.staticData;
		},
		node,
		get webhookUrl() {
			return hookContext().getNodeWebhookUrl(webhookDescription.name) ?? '';
		},
		checkExists: async () => await runWebhookMethod('checkExists'),
		create: async () => await runWebhookMethod('create'),
		delete: async () => await runWebhookMethod('delete'),
		activate: async () => {
			if (!(await runWebhookMethod('checkExists'))) await runWebhookMethod('create');
		},
		deactivate: async () => await runWebhookMethod('delete'),
		deliver: async (request) => {
			if (typeof nodeType.webhook !== 'function') {
				throw new UserError('The node has no webhook() method');
			}
			const response = new RecordedResponse();
			const additionalData = baseAdditionalData();
			additionalData.httpRequest = incomingRequest(request, node) as never;
			additionalData.httpResponse = response as never;
			const context = new WebhookContext(
				workflow,
				node,
				additionalData,
				mode,
				webhookData(additionalData),
				[],
				null,
			);

			let result: IWebhookResponseData;
			try {
				result = await nodeType.webhook.call(context);
			} catch (error) {
				// n8n answers a failing webhook() with a generic 500 and starts no run.
				return {
					statusCode: 500,
					body: { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' },
					headers: {},
					runs: [],
					error: error as Error,
					answeredInWebhook: response.headersSent,
				};
			}
			return answer(result, response, webhookDescription);
		},
		get logs() {
			return readLogs();
		},
	};
	return harness;
}

function defaultWebhook(nodeType: INodeType): IWebhookDescription {
	const webhook = nodeType.description.webhooks?.find((candidate) => candidate.name === 'default');
	if (!webhook) throw new UserError('The node declares no "default" webhook');
	return webhook;
}
