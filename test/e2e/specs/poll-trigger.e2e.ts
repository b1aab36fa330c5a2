import { startSandbox, type RunningSandbox } from '../../../sandbox';
import {
	listExecutions,
	nodeOutput,
	waitForExecutions,
	waitForTriggerStatus,
} from '../../../harness/real-n8n/executions';
import {
	N8nPublicApi,
	startN8n,
	type N8nServer,
	startN8nWithApi,
} from '../../../harness/real-n8n/n8n-server';
import { waitFor } from '../../../harness/real-n8n/processes';
import { prepareUserFolder } from '../../../harness/real-n8n/setup';
import {
	createWorkflow,
	leadIdsPerExecution,
	newLeadOfAlpha,
	newLeadPolls,
	POLL_NODE,
	POLL_WAIT_MS,
	sleep,
} from '../support/pollTrigger';

// The poll trigger inside a real n8n without any public URL: plain HTTP on localhost, a
// one-minute Poll Times. Two workflows poll the sandbox (new leads, leads reaching qualified);
// the service changes between polls and across an n8n restart, and the executions n8n records
// are compared with those changes. Minimum number of polls: activation (baseline), one
// scheduled poll, the poll of the restart, one more scheduled poll.

// Created through n8n's public API once n8n runs: one n8n CLI boot fewer than an import.
let NEW_LEADS: string;
let QUALIFIED: string;

let sandbox: RunningSandbox;
let userFolder: string;
let n8n: N8nServer;
let api: N8nPublicApi;
let apiKey: string;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, leads: 60, seed: 777 });
	userFolder = await prepareUserFolder('poll-trigger', {
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

describe('Lead Conversations Poll Trigger in n8n 2.41.1, one-minute Poll Times, no public URL', () => {
	let beforeActivation: string;
	let first: string;
	let qualifiedFirst: string;

	it('activation polls once to set the baseline and starts nothing', async () => {
		beforeActivation = sandbox.control.createChannelLead().id;
		for (const id of [NEW_LEADS, QUALIFIED]) {
			expect((await api.request('POST', `/workflows/${id}/activate`)).status).toBe(200);
			const [status] = await waitForTriggerStatus(userFolder, id);
			expect(status).toMatchObject({ status: 'activated', errorMessage: null });
		}
		await waitFor(
			'the activation poll',
			async () => (newLeadPolls(sandbox) >= 1 ? true : undefined),
			{
				timeoutMs: 30_000,
				intervalMs: 300,
			},
		);
		await sleep(3_000);
		expect(await listExecutions(api, NEW_LEADS)).toHaveLength(0);
		expect(await listExecutions(api, QUALIFIED)).toHaveLength(0);
	}, 60_000);

	it(
		'the next poll starts one execution per workflow with exactly the changes since',
		async () => {
			first = sandbox.control.createChannelLead().id;
			qualifiedFirst = newLeadOfAlpha(sandbox);
			sandbox.control.qualifyLead(qualifiedFirst, 91);

			const [leads] = await waitForExecutions(api, NEW_LEADS, 1, POLL_WAIT_MS);
			expect(leads.status).toBe('success');
			expect(leads.mode).toBe('trigger');
			expect(nodeOutput(leads, POLL_NODE).map((item) => item.json)).toEqual([
				expect.objectContaining({ id: first, event: 'lead.created' }),
			]);
			const [qualified] = await waitForExecutions(api, QUALIFIED, 1, POLL_WAIT_MS);
			expect(nodeOutput(qualified, POLL_NODE).map((item) => item.json)).toEqual([
				expect.objectContaining({ id: qualifiedFirst, event: 'lead.qualified', score: 91 }),
			]);
		},
		2 * POLL_WAIT_MS,
	);

	it(
		'changes made while n8n is down start one execution each after the restart, the lead of the same millisecond included',
		async () => {
			await sleep(2_000);
			await n8n.stop();
			const createdAt = sandbox.control.state().leads.find((l) => l.id === first)!.created_at;
			const twin = sandbox.control.createChannelLead({ created_at: createdAt }).id;
			const later = sandbox.control.createChannelLead().id;
			const qualifiedLater = newLeadOfAlpha(sandbox);
			sandbox.control.qualifyLead(qualifiedLater, 77);

			n8n = await startN8n({ userFolder, port: n8n.port, readyTimeoutMs: 180_000 });
			api = new N8nPublicApi(n8n, apiKey);

			await waitForExecutions(api, NEW_LEADS, 2, POLL_WAIT_MS);
			await waitForExecutions(api, QUALIFIED, 2, POLL_WAIT_MS);
			const leadRuns = await leadIdsPerExecution(api, NEW_LEADS);
			expect(leadRuns).toHaveLength(2);
			expect(leadRuns[1].sort()).toEqual([twin, later].sort());
			expect(await leadIdsPerExecution(api, QUALIFIED)).toEqual([
				[qualifiedFirst],
				[qualifiedLater],
			]);
		},
		4 * POLL_WAIT_MS,
	);

	it(
		'the poll after that starts nothing: no change announced twice, the baseline lead never',
		async () => {
			const polls = newLeadPolls(sandbox);
			await waitFor(
				'one more scheduled poll',
				async () => (newLeadPolls(sandbox) > polls ? true : undefined),
				{
					timeoutMs: POLL_WAIT_MS,
					intervalMs: 500,
				},
			);
			await sleep(5_000);
			const leadIds = (await leadIdsPerExecution(api, NEW_LEADS)).flat();
			expect(leadIds).toHaveLength(3);
			expect(new Set(leadIds).size).toBe(3);
			expect(leadIds).not.toContain(beforeActivation);
			expect(await leadIdsPerExecution(api, QUALIFIED)).toHaveLength(2);
		},
		2 * POLL_WAIT_MS,
	);
});
