import { readFileSync } from 'fs';
import { join } from 'path';

import type { RunningSandbox } from '../../../sandbox';
import { listExecutions, nodeOutput } from '../../../harness/real-n8n/executions';
import type { N8nPublicApi } from '../../../harness/real-n8n/n8n-server';
import { e2eWorkflowsDir } from '../../../harness/real-n8n/paths';

// What the poll-trigger specs share: their workflows (test/e2e/workflows/poll-*.json, a
// one-minute Poll Times), the requests that tell a New Lead poll happened, and the lead IDs
// each execution started with.

export const POLL_NODE = 'Lead Conversations Poll Trigger';
/** Longer than one Poll Times minute plus n8n's start of the execution. */
export const POLL_WAIT_MS = 100_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates a workflow of test/e2e/workflows through n8n's public API; returns its id. */
export async function createWorkflow(api: N8nPublicApi, file: string): Promise<string> {
	const { name, nodes, connections, settings } = JSON.parse(
		readFileSync(join(e2eWorkflowsDir, file), 'utf8'),
	) as Record<string, unknown>;
	const res = await api.request('POST', '/workflows', { name, nodes, connections, settings });
	if (res.status !== 200) throw new Error(`POST /workflows: ${res.status} ${res.text}`);
	return res.json.id as string;
}

/** The lead IDs each execution of a workflow started with, oldest execution first. */
export async function leadIdsPerExecution(
	api: N8nPublicApi,
	workflowId: string,
): Promise<string[][]> {
	const executions = await listExecutions(api, workflowId, true);
	return executions
		.reverse()
		.map((execution) => nodeOutput(execution, POLL_NODE).map((item) => item.json.id));
}

/** GET /leads requests of the New Lead polls so far (they carry created_after). */
export const newLeadPolls = (sandbox: RunningSandbox) =>
	sandbox.control.requests().filter((r) => r.path === '/v1/leads' && r.query.created_after).length;

/** A lead of org_alpha still `new`, to qualify. */
export function newLeadOfAlpha(sandbox: RunningSandbox): string {
	return sandbox.control
		.state()
		.leads.find((l) => l.organization_id === 'org_alpha' && l.status === 'new')!.id;
}
