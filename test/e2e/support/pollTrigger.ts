import { readFileSync } from 'fs';
import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import {
	listExecutions,
	nodeOutput,
	waitForTriggerStatus,
} from '../../../harness/real-n8n/executions';
import {
	N8nPublicApi,
	startN8n,
	startN8nWithApi,
	type N8nServer,
} from '../../../harness/real-n8n/n8n-server';
import { e2eWorkflowsDir } from '../../../harness/real-n8n/paths';
import { waitFor } from '../../../harness/real-n8n/processes';
import { prepareUserFolder } from '../../../harness/real-n8n/setup';

// What the poll-trigger specs share: a sandbox and a real n8n with two workflows of
// test/e2e/workflows (New Lead, and Lead Reached a Status: qualified; one-minute Poll Times),
// created through n8n's public API; their activation; a stop and a start of n8n on the same
// user folder; and what the polls and executions show.

export const POLL_NODE = 'Lead Conversations Polling Trigger';
/** Longer than one Poll Times minute plus n8n's start of the execution. */
export const POLL_WAIT_MS = 100_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface PollTriggerN8n {
	sandbox: RunningSandbox;
	userFolder: string;
	n8n: N8nServer;
	api: N8nPublicApi;
	/** Workflow IDs. */
	newLeads: string;
	qualified: string;
	/** GET /leads requests of the New Lead polls so far (they carry created_after). */
	newLeadPolls(): number;
	/** A lead of org_alpha still `new`, to qualify. */
	newLeadOfAlpha(): string;
	/** The lead IDs each execution of a workflow started with, oldest execution first. */
	leadIdsPerExecution(workflowId: string): Promise<string[][]>;
	/** Activates both workflows, checks n8n recorded them active, waits for the first poll. */
	activate(): Promise<void>;
	/** Starts n8n again on the same port and user folder, after `n8n.stop()`. */
	startAgain(): Promise<void>;
}

/** One sandbox and one n8n for a spec file, started in `beforeAll`, stopped in `afterAll`. */
export function usePollTriggerN8n(label: string, seed: number): PollTriggerN8n {
	let apiKey = '';
	const ctx = {
		newLeadPolls: () =>
			ctx.sandbox.control.requests().filter((r) => r.path === '/v1/leads' && r.query.created_after)
				.length,
		newLeadOfAlpha: () =>
			ctx.sandbox.control
				.state()
				.leads.find((l) => l.organization_id === 'org_alpha' && l.status === 'new')!.id,
		async leadIdsPerExecution(workflowId: string) {
			const executions = await listExecutions(ctx.api, workflowId, true);
			return executions
				.reverse()
				.map((execution) => nodeOutput(execution, POLL_NODE).map((item) => item.json.id));
		},
		async activate() {
			for (const id of [ctx.newLeads, ctx.qualified]) {
				const res = await ctx.api.request('POST', `/workflows/${id}/activate`);
				if (res.status !== 200) throw new Error(`activate ${id}: ${res.status} ${res.text}`);
				const [status] = await waitForTriggerStatus(ctx.userFolder, id);
				expect(status).toMatchObject({ status: 'activated', errorMessage: null });
			}
			await waitFor('the activation poll', async () => ctx.newLeadPolls() >= 1 || undefined, {
				timeoutMs: 30_000,
				intervalMs: 300,
			});
		},
		async startAgain() {
			const { userFolder, n8n } = ctx;
			ctx.n8n = await startN8n({ userFolder, port: n8n.port, readyTimeoutMs: 180_000 });
			ctx.api = new N8nPublicApi(ctx.n8n, apiKey);
		},
	} as PollTriggerN8n;

	beforeAll(async () => {
		ctx.sandbox = await startSandbox({ port: 0, leads: 60, seed });
		ctx.userFolder = await prepareUserFolder(label, {
			baseUrl: ctx.sandbox.baseUrl,
			apiKey: ctx.sandbox.keys.full,
		});
		const started = await startN8nWithApi({ userFolder: ctx.userFolder, readyTimeoutMs: 180_000 });
		({ n8n: ctx.n8n, api: ctx.api, apiKey } = started);
		ctx.newLeads = await createWorkflow(ctx.api, 'poll-new-leads.json');
		ctx.qualified = await createWorkflow(ctx.api, 'poll-qualified-leads.json');
	}, 400_000);

	afterAll(async () => {
		await ctx.n8n?.stop();
		await ctx.sandbox?.close();
	});
	return ctx;
}

async function createWorkflow(api: N8nPublicApi, file: string): Promise<string> {
	const { name, nodes, connections, settings } = JSON.parse(
		readFileSync(join(e2eWorkflowsDir, file), 'utf8'),
	) as Record<string, unknown>;
	const res = await api.request('POST', '/workflows', { name, nodes, connections, settings });
	if (res.status !== 200) throw new Error(`POST /workflows: ${res.status} ${res.text}`);
	return res.json.id as string;
}
