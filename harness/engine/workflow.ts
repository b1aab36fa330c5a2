import { randomUUID } from 'node:crypto';

import { ExecutionLifecycleHooks, TriggerContext, WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	deepCopy,
	UserError,
	Workflow,
	type DataTableProxyProvider,
	type IConnections,
	type ICredentialType,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
	type IPinData,
	type IVersionedNodeType,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type IWorkflowSettings,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { createAdditionalData } from './additionalData';
import {
	CREDENTIAL_TYPE,
	createCredentialsHelper,
	nodeCredentials,
	type HarnessCredentials,
} from './credentials';
import { captureLogs } from './logger';
import { buildResult, recordThrownErrors, type NodeFailure, type RunResult } from './runResult';
import { createNodeTypes, latestVersion } from './nodeTypes';

/** A workflow as its JSON would hold it; omitted node fields get n8n's defaults. */
export interface WorkflowSpec {
	/** The workflow's ID; left out, each run gets a new one. */
	id?: string;
	name?: string;
	nodes: Array<Partial<INode> & Pick<INode, 'name' | 'type'>>;
	connections: IConnections;
	staticData?: IDataObject;
	pinData?: IPinData;
	settings?: IWorkflowSettings;
}

export interface RunWorkflowOptions {
	mode?: WorkflowExecuteMode;
	/**
	 * Items the start node receives (and the test Manual Trigger passes on). Left out, a trigger
	 * node (one with `trigger()`, like the Schedule Trigger) starts a run that is not manual with
	 * what it emits when fired once; any other start node gets one empty item.
	 */
	inputItems?: IDataObject[];
	/** Name of the node the execution starts at; default: n8n's own choice of start node. */
	startNode?: string;
	/** Node types the workflow may use besides the package's and the test stand-ins. */
	nodeTypes?: Record<string, INodeType | IVersionedNodeType>;
	/** Extra credential types and their stored data, for test-only nodes. */
	credentialTypes?: Record<string, ICredentialType>;
	storedCredentials?: Record<string, IDataObject>;
	/** n8n Data Tables the Data Table node reads (see dataTables.ts); none when left out. */
	dataTables?: DataTableProxyProvider;
}

let executionCounter = 0;

/** Runs workflow JSON through n8n-core's WorkflowExecute, with real HTTP and real credentials. */
export async function runWorkflow(
	spec: WorkflowSpec,
	credentials: HarnessCredentials,
	options: RunWorkflowOptions = {},
): Promise<RunResult> {
	const readLogs = captureLogs();
	const mode = options.mode ?? 'manual';
	// As n8n's workflow runner: pinned data stands in for nodes only in a manual run.
	const pinData = mode === 'manual' ? spec.pinData : undefined;
	const thrown = new Map<string, NodeFailure>();
	const nodeTypes = recordThrownErrors(createNodeTypes(options.nodeTypes), thrown);
	const nodes = spec.nodes.map((node) => completeNode(node, nodeTypes));

	const workflowId = spec.id ?? `workflow-${randomUUID()}`;
	const workflow = new Workflow({
		id: workflowId,
		name: spec.name ?? 'Lead Conversations test workflow',
		nodes,
		connections: spec.connections,
		active: false,
		nodeTypes,
		staticData: deepCopy(spec.staticData ?? {}),
		settings: spec.settings ?? { executionOrder: 'v1' },
		pinData,
	});

	const startNode = options.startNode
		? workflow.getNode(options.startNode)
		: workflow.getStartNode();
	if (!startNode) throw new UserError('The workflow has no node to start from');

	const executionId = `execution-${++executionCounter}`;
	const workflowData = {
		id: workflowId,
		name: workflow.name,
		active: false,
		nodes,
		connections: spec.connections,
		settings: workflow.settings,
		staticData: spec.staticData,
		pinData,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	const credentialsHelper = createCredentialsHelper(credentials, {
		types: options.credentialTypes,
		stored: options.storedCredentials as never,
	});
	const additionalData = createAdditionalData({
		credentialsHelper,
		hooks,
		executionId,
		workflowId,
	});
	if (options.dataTables) {
		// Where n8n's cli puts its Data Tables module for the Data Table node.
		Object.assign(additionalData, { 'data-table': { dataTableProxyProvider: options.dataTables } });
	}

	// A manual run fires a trigger start node inside WorkflowExecute; any other run starts with
	// what the trigger emitted before it.
	const { execute, trigger } = nodeTypes.getByNameAndVersion(startNode.type, startNode.typeVersion);
	const firedBeforeRun =
		options.inputItems === undefined && mode !== 'manual' && !execute && trigger !== undefined;
	const startData = firedBeforeRun
		? await fireTrigger(workflow, startNode, additionalData)
		: [(options.inputItems ?? [{}]).map((json) => ({ json }))];
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: startData }, source: null }],
		},
		resultData: { pinData },
	});

	const run = await new WorkflowExecute(
		additionalData,
		mode,
		runExecutionData,
	).processRunExecutionData(workflow);

	return buildResult(run, workflow, thrown, readLogs());
}

/**
 * What a trigger node emits when it fires once. In production n8n activates the trigger, and
 * each time it emits (a schedule is due, say), n8n starts a run whose start node passes the
 * emitted items on. Rather than wait for the schedule, the harness fires the node the way n8n's
 * editor does ("Execute workflow": manual activation, then `manualTriggerFunction`), through
 * n8n-core's TriggerContext, and closes it again.
 */
async function fireTrigger(
	workflow: Workflow,
	node: INode,
	additionalData: IWorkflowExecuteAdditionalData,
): Promise<INodeExecutionData[][]> {
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	let context!: TriggerContext;
	const emitted = new Promise<INodeExecutionData[][]>((emit, emitError) => {
		context = new TriggerContext(
			workflow,
			node,
			additionalData,
			'manual',
			'manual',
			emit,
			emitError,
		);
	});
	const response = await nodeType.trigger!.call(context);
	try {
		await response?.manualTriggerFunction?.();
		return await emitted;
	} finally {
		await response?.closeFunction?.();
	}
}

/**
 * Fills in what n8n's editor would have written: id, position, the newest type version, and a
 * reference to our credential for node types that use it (unless the spec sets `credentials`).
 */
function completeNode(node: WorkflowSpec['nodes'][number], nodeTypes: INodeTypes): INode {
	const typeVersion = node.typeVersion ?? latestVersion(nodeTypes.getByName(node.type));
	const { description } = nodeTypes.getByNameAndVersion(node.type, typeVersion);
	const complete: INode = {
		id: randomUUID(),
		position: [0, 0],
		parameters: {},
		...deepCopy(node),
		typeVersion,
	};
	const usesOurCredential = (description.credentials ?? []).some(
		(credential) => credential.name === CREDENTIAL_TYPE,
	);
	if (complete.credentials === undefined && usesOurCredential) {
		complete.credentials = nodeCredentials();
	}
	if (complete.webhookId === undefined && (description.webhooks ?? []).length > 0) {
		complete.webhookId = randomUUID();
	}
	return complete;
}
