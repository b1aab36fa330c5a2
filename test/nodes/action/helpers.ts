import { LoadOptionsContext } from 'n8n-core';
import { Workflow, type IDataObject, type INode, type INodeParameters } from 'n8n-workflow';

import { createAdditionalData } from '../../../harness/engine/additionalData';
import {
	ACTION_NODE_TYPE,
	CREDENTIAL_REFERENCE,
	CREDENTIAL_TYPE,
	createCredentialsHelper,
	createNodeTypes,
	runActionNode,
	type RunActionNodeOptions,
	type RunResult,
	type RunningSandbox,
} from '../../../harness/engine';
import type {
	RequestLogEntry,
	StoredAgent,
	StoredConversation,
	StoredLead,
} from '../../../sandbox';
import { credentialsOf, useSandbox } from '../../support/useSandbox';

export const NODE = 'Lead Conversations';

export { credentialsOf, useSandbox };

export async function run(
	sandbox: RunningSandbox,
	parameters: INodeParameters,
	options: RunActionNodeOptions & { key?: keyof RunningSandbox['keys'] } = {},
): Promise<RunResult> {
	const { key, ...rest } = options;
	return await runActionNode(parameters, credentialsOf(sandbox, key), rest);
}

/**
 * Runs one operation of the action node on the sandbox of `context`: the parameters a test gives
 * are those besides resource and operation.
 */
export function operationRunner(
	context: { sandbox: RunningSandbox },
	resource: string,
	operation: string,
) {
	return async (
		parameters: INodeParameters = {},
		options: RunActionNodeOptions & { key?: keyof RunningSandbox['keys'] } = {},
	) => await run(context.sandbox, { resource, operation, ...parameters }, options);
}

export function jsonOf(result: RunResult): IDataObject[] {
	return result.output(NODE).map((item) => item.json);
}

export function pairedOf(result: RunResult): unknown[] {
	return result.output(NODE).map((item) => item.pairedItem);
}

/** Requests the node sent to the service (the control channel is not logged). */
export function apiRequests(sandbox: RunningSandbox, path?: string): RequestLogEntry[] {
	return sandbox.control
		.requests()
		.filter(
			(entry) => path === undefined || entry.path === path || entry.path.startsWith(`${path}/`),
		);
}

/** Leads of org_alpha as the sandbox stores them. */
export function alphaLeads(sandbox: RunningSandbox): StoredLead[] {
	return sandbox.control.state().leads.filter((lead) => lead.organization_id === 'org_alpha');
}

/** Agents of org_alpha as the sandbox stores them. */
export function alphaAgents(sandbox: RunningSandbox): StoredAgent[] {
	return sandbox.control.state().agents.filter((agent) => agent.organization_id === 'org_alpha');
}

export function pages(total: number): number {
	return Math.max(1, Math.ceil(total / 100));
}

/** Everything a run left behind that a user or a log reader could see. */
export function visibleTrace(result: RunResult): string {
	const error = result.error;
	return JSON.stringify({
		output: result.output(NODE),
		error: error && {
			message: error.message,
			description: error.description,
			context: error.context,
			json: JSON.stringify(error),
		},
		logs: result.logs,
		run: result.run.data.resultData,
	});
}

export function ref(mode: 'list' | 'id', value: string) {
	return { __rl: true, mode, value };
}

/**
 * The context n8n's editor gives a node's list searches (n8n-core's LoadOptionsContext), with the
 * node's current parameters and the real credential: no mocked helpers.
 */
export function editorContext(
	sandbox: RunningSandbox,
	parameters: INodeParameters,
): LoadOptionsContext {
	const node: INode = {
		id: 'node-1',
		name: NODE,
		type: ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: CREDENTIAL_REFERENCE },
	};
	const workflow = new Workflow({
		id: 'editor',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: createNodeTypes(),
	});
	const additionalData = createAdditionalData({
		credentialsHelper: createCredentialsHelper(credentialsOf(sandbox)),
	});
	additionalData.currentNodeParameters = parameters;
	return new LoadOptionsContext(workflow, node, additionalData, 'parameters');
}

/** A seeded conversation of the main test organization that `test` picks; the seed must hold one. */
export function seededConversation(
	sandbox: RunningSandbox,
	test: (conversation: StoredConversation) => boolean,
): StoredConversation {
	const found = sandbox.control
		.state()
		.conversations.find((c) => c.organization_id === 'org_alpha' && test(c));
	if (!found) throw new Error('The seed has no such conversation');
	return found;
}
