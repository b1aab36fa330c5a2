import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { listExecutions, waitForTriggerStatus } from '../../../harness/real-n8n/executions';
import {
	N8nPublicApi,
	startN8n,
	type N8nServer,
	startN8nWithApi,
} from '../../../harness/real-n8n/n8n-server';
import { waitFor } from '../../../harness/real-n8n/processes';
import { prepareUserFolder } from '../../../harness/real-n8n/setup';
import { queryN8nDatabase } from '../../../harness/real-n8n/sqlite';
import {
	createWorkflow,
	leadIdsPerExecution,
	newLeadOfAlpha,
	newLeadPolls,
	POLL_NODE,
	POLL_WAIT_MS,
	sleep,
} from '../support/pollTrigger';

// A restart of n8n before the poll trigger's first execution: does the position the activation
// poll took survive it? n8n 2.41.1, default settings (no durable poll cursors). Two workflows
// (New Lead, Lead Reached a Status) are activated, n8n is stopped before any execution, the
// service changes while n8n is down, n8n starts again. What the database holds after the
// activation and which changes the polls after the restart announce are printed and asserted.

let NEW_LEADS: string;
let QUALIFIED: string;

let sandbox: RunningSandbox;
let userFolder: string;
let n8n: N8nServer;
let api: N8nPublicApi;
let apiKey: string;

/** The poll trigger's static data as n8n stored it in the workflow's row. */
async function storedPosition(workflowId: string): Promise<Record<string, any> | undefined> {
	const [row] = await queryN8nDatabase<{ staticData: string | null }>(
		userFolder,
		'SELECT staticData FROM workflow_entity WHERE id = ?',
		[workflowId],
	);
	const all = row?.staticData ? (JSON.parse(row.staticData) as Record<string, any>) : {};
	return all[`node:${POLL_NODE}`];
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, leads: 60, seed: 778 });
	userFolder = await prepareUserFolder('poll-trigger-restart', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	({ n8n, apiKey, api } = await startN8nWithApi({ userFolder, readyTimeoutMs: 180_000 }));
	NEW_LEADS = await createWorkflow(api, 'poll-new-leads.json');
	QUALIFIED = await createWorkflow(api, 'poll-qualified-leads.json');
}, 400_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

describe('Poll Trigger in n8n 2.41.1: a restart before the first execution', () => {
	let beforeActivation: string;
	const whileDown = { lead: '', qualified: '' };

	it('the activation poll stores its position in the database at once, with no execution', async () => {
		beforeActivation = sandbox.control.createChannelLead().id;
		for (const id of [NEW_LEADS, QUALIFIED]) {
			expect((await api.request('POST', `/workflows/${id}/activate`)).status).toBe(200);
			const [status] = await waitForTriggerStatus(userFolder, id);
			expect(status).toMatchObject({ status: 'activated', errorMessage: null });
		}
		await waitFor('the activation poll', async () => newLeadPolls(sandbox) >= 1 || undefined, {
			timeoutMs: 30_000,
			intervalMs: 300,
		});
		const stored = await waitFor(
			'both positions in the database',
			async () => {
				const positions = [await storedPosition(NEW_LEADS), await storedPosition(QUALIFIED)];
				return positions.every(Boolean) ? positions : undefined;
			},
			{ timeoutMs: 20_000, intervalMs: 500 },
		);
		process.stdout.write(
			`polls before the stop: ${newLeadPolls(sandbox)} New Lead poll(s); stored after activation:\n` +
				`${JSON.stringify(stored)}\n`,
		);
		const [newLeads, qualified] = stored;
		expect(newLeads?.newLeads.atMark).toContain(beforeActivation);
		expect(Object.values(qualified?.inStatus ?? {})).toEqual([expect.any(Array)]);
		expect(await listExecutions(api, NEW_LEADS)).toHaveLength(0);
		expect(await listExecutions(api, QUALIFIED)).toHaveLength(0);

		await n8n.stop();
		expect([await storedPosition(NEW_LEADS), await storedPosition(QUALIFIED)]).toEqual(stored);
	}, 120_000);

	it(
		'changes made while n8n was down are announced once after the restart; the baseline lead never',
		async () => {
			whileDown.lead = sandbox.control.createChannelLead().id;
			whileDown.qualified = newLeadOfAlpha(sandbox);
			sandbox.control.qualifyLead(whileDown.qualified, 83);

			n8n = await startN8n({ userFolder, port: n8n.port, readyTimeoutMs: 180_000 });
			api = new N8nPublicApi(n8n, apiKey);
			const polls = newLeadPolls(sandbox);
			// The poll of the restart and one scheduled poll after it.
			await waitFor(
				'two polls after the restart',
				async () => newLeadPolls(sandbox) >= polls + 2 || undefined,
				{
					timeoutMs: 2 * POLL_WAIT_MS,
					intervalMs: 500,
				},
			);
			await sleep(5_000);
			const leads = await leadIdsPerExecution(api, NEW_LEADS);
			const qualified = await leadIdsPerExecution(api, QUALIFIED);
			process.stdout.write(
				`after the restart: New Lead executions ${JSON.stringify(leads)}, ` +
					`Lead Reached a Status executions ${JSON.stringify(qualified)}\n`,
			);
			expect(leads).toEqual([[whileDown.lead]]);
			expect(qualified).toEqual([[whileDown.qualified]]);
		},
		3 * POLL_WAIT_MS,
	);
});
