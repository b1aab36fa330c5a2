import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeParameters,
	type INodeType,
	type IVersionedNodeType,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import type { HarnessCredentials } from './credentials';
import { ACTION_NODE_TYPE, MANUAL_TRIGGER_NODE_TYPE } from './nodeTypes';
import type { RunResult } from './runResult';
import { runWorkflow, type WorkflowSpec } from './workflow';

export interface RunActionNodeOptions {
	inputItems?: IDataObject[];
	staticData?: IDataObject;
	nodeName?: string;
	/** IDs of the workflow and the node, fixed so several runs are runs of one workflow. */
	workflowId?: string;
	nodeId?: string;
	/** Sets the node's On Error setting to "Continue" (continueRegularOutput). */
	continueOnFail?: boolean;
	mode?: WorkflowExecuteMode;
	/** Node type to run instead of the package's action node (for harness self-tests). */
	nodeType?: string;
	nodeTypes?: Record<string, INodeType | IVersionedNodeType>;
	/** The node's typeVersion as a saved workflow states it; the newest by default. */
	typeVersion?: number;
	/** The workflow's time zone setting (n8n's default when absent). */
	timezone?: string;
}

export const DEFAULT_ACTION_NODE_NAME = 'Lead Conversations';

/** "Manual Trigger → one action node with these parameters", run once. */
export async function runActionNode(
	parameters: INodeParameters,
	credentials: HarnessCredentials,
	options: RunActionNodeOptions = {},
): Promise<RunResult> {
	const nodeName = options.nodeName ?? DEFAULT_ACTION_NODE_NAME;
	const actionNode: WorkflowSpec['nodes'][number] = {
		name: nodeName,
		...(options.nodeId === undefined ? {} : { id: options.nodeId }),
		type: options.nodeType ?? ACTION_NODE_TYPE,
		position: [220, 0],
		parameters,
	};
	if (options.typeVersion !== undefined) actionNode.typeVersion = options.typeVersion;
	if (options.continueOnFail) actionNode.onError = 'continueRegularOutput';

	return await runWorkflow(
		{
			id: options.workflowId,
			nodes: [
				{
					name: 'Manual Trigger',
					type: MANUAL_TRIGGER_NODE_TYPE,
					position: [0, 0],
					parameters: {},
				},
				actionNode,
			],
			connections: {
				'Manual Trigger': {
					main: [[{ node: nodeName, type: NodeConnectionTypes.Main, index: 0 }]],
				},
			},
			staticData: options.staticData,
			...(options.timezone
				? { settings: { executionOrder: 'v1', timezone: options.timezone } }
				: {}),
		},
		credentials,
		{ inputItems: options.inputItems, mode: options.mode, nodeTypes: options.nodeTypes },
	);
}
