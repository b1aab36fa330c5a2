// The workflows imported into the real n8n: each measured path starts at a webhook, so the bench
// can start it over HTTP and time it from outside.

import { randomUUID } from 'crypto';

import { actionNodeType, triggerNodeType } from '../../harness/real-n8n/paths';
import { diyChainWorkflow, verifyWorkflow } from '../../harness/real-n8n/verifyWorkflows';
import { httpRequestParameters, type Target } from '../lib/clients';

export const CREDENTIALS = {
	ours: { id: 'LcBenchCredential1', name: 'Lead Conversations account' },
	headerAuth: { id: 'LcBenchHeaderAuth1', name: 'Header Auth account' },
	signingSecret: { id: 'LcBenchSigning001', name: 'Lead Conversations signing secret' },
	crypto: { id: 'LcBenchCrypto0001', name: 'Crypto account' },
};

export const WORKFLOW_IDS = {
	trigger: 'LcBenchTrigger001',
	webhook: 'LcBenchWebhook001',
	verify: 'LcBenchVerify0001',
	chain: 'LcBenchDiyChain01',
	empty: 'LcBenchActEmpty01',
	node: 'LcBenchActNode001',
	http: 'LcBenchActHttp001',
};

/** Nothing saved for successful runs: what is measured is the run, not writing 20,000 items. */
const ACTION_SETTINGS = {
	executionOrder: 'v1',
	saveDataSuccessExecution: 'none',
	saveManualExecutions: false,
	saveExecutionProgress: false,
};

function workflow(
	id: string,
	name: string,
	nodes: unknown[],
	connections: unknown,
	settings: object,
) {
	return { id, name, nodes, connections, settings, pinData: {} };
}

function webhookNode(path: string, responseMode: 'onReceived' | 'lastNode') {
	return {
		id: randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: path,
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode,
			...(responseMode === 'lastNode' ? { responseData: 'noData' } : {}),
			options: {},
		},
	};
}

function noOp() {
	return {
		id: randomUUID(),
		name: 'No Operation, do nothing',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [220, 0],
		parameters: {},
	};
}

function after(first: string, second: string) {
	return { [first]: { main: [[{ node: second, type: 'main', index: 0 }]] } };
}

export interface BenchPaths {
	triggerWebhookId: string;
	webhookPath: string;
	verifyPath: string;
	chainPath: string;
	emptyPath: string;
	nodePath: string;
	httpPath: string;
}

export function newBenchPaths(): BenchPaths {
	return {
		triggerWebhookId: randomUUID(),
		webhookPath: randomUUID(),
		verifyPath: randomUUID(),
		chainPath: randomUUID(),
		emptyPath: randomUUID(),
		nodePath: randomUUID(),
		httpPath: randomUUID(),
	};
}

export function benchWorkflows(options: {
	paths: BenchPaths;
	signingSecret: string;
	triggerVersion: number;
	actionVersion: number;
	replay: Target;
}) {
	const { paths } = options;
	return [
		// 6b: the trigger, its subscription made by hand, against the plain Webhook node.
		workflow(
			WORKFLOW_IDS.trigger,
			'Bench: Lead Conversations Trigger',
			[
				{
					id: randomUUID(),
					name: 'Lead Conversations Trigger',
					type: triggerNodeType,
					typeVersion: options.triggerVersion,
					position: [0, 0],
					webhookId: paths.triggerWebhookId,
					parameters: {
						events: ['lead.qualified'],
						subscription: 'manual',
						signingSecret: options.signingSecret,
						options: {},
					},
					credentials: { leadConversationsApi: CREDENTIALS.ours },
				},
				noOp(),
			],
			after('Lead Conversations Trigger', 'No Operation, do nothing'),
			{ executionOrder: 'v1' },
		),
		workflow(
			WORKFLOW_IDS.webhook,
			'Bench: plain Webhook node',
			[webhookNode(paths.webhookPath, 'onReceived'), noOp()],
			after('Webhook', 'No Operation, do nothing'),
			{ executionOrder: 'v1' },
		),
		// 6b: the same deliveries on n8n's Webhook node, checked by Event: Verify or by hand.
		{
			...verifyWorkflow({
				id: WORKFLOW_IDS.verify,
				path: paths.verifyPath,
				secret: CREDENTIALS.signingSecret,
				actionVersion: options.actionVersion,
			}),
			name: 'Bench: Webhook → Verify',
		},
		{
			...diyChainWorkflow({
				id: WORKFLOW_IDS.chain,
				path: paths.chainPath,
				crypto: CREDENTIALS.crypto,
			}),
			name: 'Bench: Webhook → Crypto → IF',
		},
		// 2b and 3b: Return All in n8n itself, answered when the run ends.
		workflow(
			WORKFLOW_IDS.empty,
			'Bench: webhook only',
			[
				webhookNode(paths.emptyPath, 'lastNode'),
				{
					id: randomUUID(),
					name: 'No Operation, do nothing',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [220, 0],
					parameters: {},
				},
			],
			after('Webhook', 'No Operation, do nothing'),
			ACTION_SETTINGS,
		),
		workflow(
			WORKFLOW_IDS.node,
			'Bench: Lead Conversations, Get Many, Return All',
			[
				webhookNode(paths.nodePath, 'lastNode'),
				{
					id: randomUUID(),
					name: 'Lead Conversations',
					type: actionNodeType,
					typeVersion: options.actionVersion,
					position: [220, 0],
					parameters: { resource: 'lead', operation: 'getAll', returnAll: true },
					credentials: { leadConversationsApi: CREDENTIALS.ours },
				},
			],
			after('Webhook', 'Lead Conversations'),
			ACTION_SETTINGS,
		),
		workflow(
			WORKFLOW_IDS.http,
			'Bench: HTTP Request with cursor pagination',
			[
				webhookNode(paths.httpPath, 'lastNode'),
				{
					id: randomUUID(),
					name: 'HTTP Request',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.5,
					position: [220, 0],
					parameters: httpRequestParameters(options.replay, {}),
					credentials: { httpHeaderAuth: CREDENTIALS.headerAuth },
				},
			],
			after('Webhook', 'HTTP Request'),
			ACTION_SETTINGS,
		),
	];
}
