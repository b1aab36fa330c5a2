import { randomUUID } from 'node:crypto';

import { PollContext } from 'n8n-core';
import {
	UserError,
	Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type IPollFunctions,
	type IVersionedNodeType,
	type WorkflowActivateMode,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { createAdditionalData } from './additionalData';
import { createCredentialsHelper, nodeCredentials, type HarnessCredentials } from './credentials';
import { captureLogs } from './logger';
import { createNodeTypes, latestVersion, PACKAGE_NAME } from './nodeTypes';

export const POLL_TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.leadConversationsPollTrigger`;

/**
 * How the running n8n keeps a poll's static data:
 * - `staged` (n8n 2.41): each poll gets a copy of the stored cursor; n8n stores that copy with
 *   the execution the poll starts, or alone when the poll returns null, and drops it when the
 *   poll throws (cli `trigger-execution-context.factory.ts`, n8n-core `poll-trigger-executor.ts`).
 *   n8n 2.41 does this when its durable poll cursors are on (N8N_POLLER_DURABLE_CURSORS_ENABLED
 *   with the scheduler); otherwise it keeps static data the legacy way.
 * - `legacy` (n8n 1.x, and n8n 2.41 by default): the poll changes the workflow's live static data, which stays in memory
 *   across polls and reaches the database when an execution starts; a restart reloads that.
 */
export type StaticDataKeeping = 'staged' | 'legacy';

export interface PollResult {
	/** The items of the execution the poll started, or null when it started none. */
	items: IDataObject[] | null;
	/** What the poll threw: n8n then records a failed execution and starts nothing. */
	error?: Error;
}

export interface PollHarness {
	readonly node: INode;
	readonly keeping: StaticDataKeeping;
	/** One scheduled poll, as n8n runs it on its "Poll Times". */
	poll(): Promise<PollResult>;
	/** "Fetch Test Event" in the editor: a manual poll. */
	fetchTestEvent(): Promise<PollResult>;
	/** n8n stops and starts again: what is not stored is lost. */
	restart(): void;
	/** The node's static data as n8n has stored it (what a restart starts from). */
	readonly stored: IDataObject;
	/** The node's static data as the next poll will see it (legacy: the live copy in memory). */
	readonly position: IDataObject;
	/** Items of every execution the polls started, in order. */
	readonly executions: IDataObject[][];
	readonly logs: string[];
}

export interface PollHarnessOptions {
	/** Default: what the loaded engine does (n8n 2.41 with its durable poll cursors: staged). */
	keeping?: StaticDataKeeping;
	/** What n8n 2.41's `getPollBudgetMs()` returns; without it, its default of 5 minutes. */
	budgetMs?: number;
	nodeName?: string;
	/** The node's version as saved in the workflow; default: the latest. */
	typeVersion?: number;
	nodeTypes?: Record<string, INodeType | IVersionedNodeType>;
}

/** A plain copy; n8n's static data is an observable proxy that structuredClone refuses. */
const clone = <T>(value: T): T => {
	const copy = JSON.parse(JSON.stringify(value ?? {})) as T & { __dataChanged?: unknown };
	delete copy.__dataChanged;
	return copy;
};

/** Whether the loaded n8n-core's poll context offers staging (2.41) or not (1.x). */
export function keepingOfEngine(): StaticDataKeeping {
	return PollContext.toString().includes('resolveNodeStaticData') ? 'staged' : 'legacy';
}

/**
 * Drives the package's polling trigger the way n8n's active-workflow manager does, in n8n-core's
 * own PollContext, with the static-data keeping of the engine that is loaded.
 */
export function createPollHarness(
	parameters: INodeParameters,
	credentials: HarnessCredentials,
	options: PollHarnessOptions = {},
): PollHarness {
	const readLogs = captureLogs();
	const keeping = options.keeping ?? keepingOfEngine();
	if (keeping === 'staged' && keepingOfEngine() === 'legacy') {
		throw new UserError('The loaded n8n-core has no staged poll cursor');
	}
	const nodeTypes = createNodeTypes({
		[POLL_TRIGGER_NODE_TYPE]: loadPollTrigger(),
		...options.nodeTypes,
	});
	const nodeType = nodeTypes.getByNameAndVersion(POLL_TRIGGER_NODE_TYPE);
	if (typeof nodeType?.poll !== 'function') throw new UserError('The node has no poll()');

	const node: INode = {
		id: randomUUID(),
		name: options.nodeName ?? 'Lead Conversations Polling Trigger',
		type: POLL_TRIGGER_NODE_TYPE,
		typeVersion: options.typeVersion ?? latestVersion(nodeTypes.getByName(POLL_TRIGGER_NODE_TYPE)),
		position: [0, 0],
		parameters: clone(parameters),
		credentials: nodeCredentials(),
	};
	const workflowId = `workflow-${randomUUID()}`;
	const credentialsHelper = createCredentialsHelper(credentials);
	const staticKey = `node:${node.name}`;
	let storedWorkflowData: IDataObject = {};
	const executions: IDataObject[][] = [];

	const newWorkflow = () =>
		new Workflow({
			id: workflowId,
			name: 'Lead Conversations poll workflow',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: clone(storedWorkflowData),
			settings: { executionOrder: 'v1' },
		});
	let workflow = newWorkflow();
	let activation: WorkflowActivateMode = 'activate';
	// n8n polls once as it activates the workflow (at activation and at every start), then saves
	// the workflow's static data (cli active-workflow-manager.ts `add`), execution or not.
	let activationPoll = true;

	const store = (nodeData: IDataObject) => {
		storedWorkflowData = { ...storedWorkflowData, [staticKey]: clone(nodeData) };
	};

	const run = async (mode: WorkflowExecuteMode): Promise<PollResult> => {
		const manual = mode === 'manual';
		const additionalData = createAdditionalData({ credentialsHelper, workflowId });
		const emitted: INodeExecutionData[][][] = [];
		const emit = (data: INodeExecutionData[][]) => emitted.push(data);
		const fail = () => {};
		let staged: IDataObject | undefined;
		const context =
			keeping === 'staged' && !manual
				? new PollContext(
						workflow,
						node,
						additionalData,
						mode,
						activation,
						emit,
						fail,
						async () => {},
						async (poll) => {
							staged = clone((storedWorkflowData[staticKey] as IDataObject | undefined) ?? {});
							return await poll();
						},
						() => staged!,
						options.budgetMs === undefined ? undefined : () => options.budgetMs!,
					)
				: new PollContext(
						workflow,
						node,
						additionalData,
						mode,
						manual ? 'manual' : activation,
						emit,
						fail,
					);

		let response: INodeExecutionData[][] | null;
		try {
			const poll = () => nodeType.poll!.call(context as unknown as IPollFunctions);
			const runPoll = (context as unknown as Required<IPollFunctions>).__runPoll;
			response =
				keeping === 'staged' && !manual && typeof runPoll === 'function'
					? ((await runPoll.call(context, poll)) as INodeExecutionData[][] | null)
					: await poll();
		} catch (error) {
			return { items: null, error: error as Error };
		}
		if (manual) return { items: response ? response[0].map((item) => item.json) : null };

		if (keeping === 'staged') {
			store(staged ?? {});
		} else if (response !== null || activationPoll) {
			store(workflow.getStaticData('node', node));
		}
		activationPoll = false;
		if (response === null) return { items: null };
		const items = response[0].map((item) => item.json);
		executions.push(items);
		return { items };
	};

	return {
		node,
		keeping,
		poll: async () => await run('trigger'),
		fetchTestEvent: async () => await run('manual'),
		restart: () => {
			workflow = newWorkflow();
			activation = 'init';
			activationPoll = true;
		},
		get stored() {
			return clone((storedWorkflowData[staticKey] as IDataObject | undefined) ?? {});
		},
		get position() {
			return keeping === 'legacy'
				? clone(workflow.getStaticData('node', node))
				: clone((storedWorkflowData[staticKey] as IDataObject | undefined) ?? {});
		},
		executions,
		get logs() {
			return readLogs();
		},
	};
}

export function loadPollTrigger(): INodeType {
	// Loaded on demand, like the package's other nodes in nodeTypes.ts.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { LeadConversationsPollTrigger } =
		require('../../nodes/LeadConversationsPollTrigger/LeadConversationsPollTrigger.node') as {
			LeadConversationsPollTrigger: new () => INodeType;
		};
	return new LeadConversationsPollTrigger();
}
