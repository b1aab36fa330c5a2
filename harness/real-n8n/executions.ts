import type { N8nPublicApi } from './n8n-server';
import { activatesAsynchronously } from './n8nLine';
import { waitFor } from './processes';
import { queryN8nDatabase } from './sqlite';

export interface ExecutionSummary {
	id: string;
	status: string;
	mode: string;
	workflowId: string;
	data?: any;
}

/** Every execution of a workflow, newest first, read through the public API. */
export async function listExecutions(
	api: N8nPublicApi,
	workflowId: string,
	includeData = false,
): Promise<ExecutionSummary[]> {
	const res = await api.request(
		'GET',
		`/executions?workflowId=${encodeURIComponent(workflowId)}&limit=250&includeData=${includeData}`,
	);
	if (res.status !== 200) throw new Error(`GET /executions: ${res.status} ${res.text}`);
	return res.json.data as ExecutionSummary[];
}

/** Waits until the workflow has `count` finished executions and returns them (with data). */
export async function waitForExecutions(
	api: N8nPublicApi,
	workflowId: string,
	count: number,
	timeoutMs = 20_000,
): Promise<ExecutionSummary[]> {
	return await waitFor(
		`${count} finished execution(s) of workflow ${workflowId}`,
		async () => {
			const executions = await listExecutions(api, workflowId, true);
			const finished = executions.filter((e) => e.status !== 'running' && e.status !== 'new');
			return finished.length >= count ? finished : undefined;
		},
		{ timeoutMs, intervalMs: 300 },
	);
}

/** The items a node output in an execution read with includeData. */
export function nodeOutput(execution: ExecutionSummary, nodeName: string): Array<{ json: any }> {
	const runs = execution.data?.resultData?.runData?.[nodeName];
	if (!runs?.length) return [];
	return runs[runs.length - 1].data?.main?.[0] ?? [];
}

export interface TriggerStatus {
	workflowId: string;
	nodeId: string;
	status: string;
	errorMessage: string | null;
}

/**
 * n8n 2.41 activates published workflows asynchronously (a publication outbox), after the API
 * call returns and after the readiness probe turns green; this table says how each trigger
 * node's activation ended (`activated` or `failed` with the error). n8n 1.x activates within the
 * API call (a failure is its error answer) and only records the workflow as active.
 */
export async function waitForTriggerStatus(
	userFolder: string,
	workflowId: string,
	timeoutMs = 30_000,
): Promise<TriggerStatus[]> {
	if (!activatesAsynchronously())
		return await waitForActiveWorkflow(userFolder, workflowId, timeoutMs);
	return await waitFor(
		`the activation outcome of workflow ${workflowId}`,
		async () => {
			const rows = await queryN8nDatabase<TriggerStatus>(
				userFolder,
				'SELECT workflowId, nodeId, status, errorMessage FROM workflow_publication_trigger_status WHERE workflowId = ?',
				[workflowId],
			);
			return rows.length > 0 && rows.every((r) => r.status === 'activated' || r.status === 'failed')
				? rows
				: undefined;
		},
		{ timeoutMs, intervalMs: 400 },
	);
}

async function waitForActiveWorkflow(
	userFolder: string,
	workflowId: string,
	timeoutMs: number,
): Promise<TriggerStatus[]> {
	return await waitFor(
		`workflow ${workflowId} to be active`,
		async () => {
			const rows = await queryN8nDatabase<{ active: number }>(
				userFolder,
				'SELECT active FROM workflow_entity WHERE id = ?',
				[workflowId],
			);
			return rows[0]?.active
				? [{ workflowId, nodeId: '', status: 'activated', errorMessage: null }]
				: undefined;
		},
		{ timeoutMs, intervalMs: 400 },
	);
}
