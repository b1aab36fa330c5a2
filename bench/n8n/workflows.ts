// The workflows imported into the real n8n: each measured path starts at a webhook, so the bench
// can start it over HTTP and time it from outside.

import { randomUUID } from 'crypto';

import { actionNodeType, triggerNodeType } from '../../harness/real-n8n/paths';
import { diyChainWorkflow, verifyWorkflow } from '../../harness/real-n8n/verifyWorkflows';
import { httpRequestParameters, type Target } from '../lib/clients';

export const CREDENTIALS = {
	ours: { id: 'LcBenchCredential1', name: 'Lead Conversations account' },
	/** The sandbox, where the trigger subscribes itself. */
	service: { id: 'LcBenchService001', name: 'Lead Conversations sandbox account' },
	headerAuth: { id: 'LcBenchHeaderAuth1', name: 'Header Auth account' },
	signingSecret: { id: 'LcBenchSigning001', name: 'Lead Conversations signing secret' },
	crypto: { id: 'LcBenchCrypto0001', name: 'Crypto account' },
};

export const WORKFLOW_IDS = {
	trigger: 'LcBenchTrigger001',
	triggerManual: 'LcBenchTrigManual',
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

/** Lead Conversations Trigger → No Operation. */
function triggerWorkflow(
	id: string,
	webhookId: string,
	typeVersion: number,
	node: { parameters: object; credentials: object },
) {
	const name = 'Lead Conversations Trigger';
	return workflow(
		id,
		`Bench: ${name} ${id}`,
		[
			{
				id: randomUUID(),
				name,
				type: triggerNodeType,
				typeVersion,
				position: [0, 0],
				webhookId,
				...node,
			},
			noOp(),
		],
		after(name, 'No Operation, do nothing'),
		{ executionOrder: 'v1' },
	);
}

export interface BenchPaths {
	triggerWebhookId: string;
	triggerManualWebhookId: string;
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
		triggerManualWebhookId: randomUUID(),
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
	triggerVersion: number;
	actionVersion: number;
	replay: Target;
}) {
	const { paths } = options;
	return [
		// 6b: the trigger as it comes (it subscribes itself to the sandbox and keeps the secret the
		// service returns), and with a Manual subscription and its secret in a credential.
		triggerWorkflow(WORKFLOW_IDS.trigger, paths.triggerWebhookId, options.triggerVersion, {
			parameters: { events: ['lead.qualified'], options: {} },
			credentials: { leadConversationsApi: CREDENTIALS.service },
		}),
		triggerWorkflow(
			WORKFLOW_IDS.triggerManual,
			paths.triggerManualWebhookId,
			options.triggerVersion,
			{
				parameters: { events: ['lead.qualified'], subscription: 'manual', options: {} },
				credentials: {
					leadConversationsApi: CREDENTIALS.ours,
					leadConversationsSigningSecretApi: CREDENTIALS.signingSecret,
				},
			},
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
			[webhookNode(paths.emptyPath, 'lastNode'), noOp()],
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
