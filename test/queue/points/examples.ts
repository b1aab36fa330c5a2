import { listExecutions, nodeOutput } from '../../../harness/real-n8n/executions';
import { N8nSession } from '../../../harness/real-n8n/n8n-server';
import { waitFor } from '../../../harness/real-n8n/processes';
import { createAdvisorsRoster } from '../../support/advisorsRoster';
import { recordFigure } from '../support/figures';
import { post, signedEvent } from '../support/runs';
import { example, PATHS, suite } from '../support/suite';

// Point 6: the examples, imported as shipped, in queue mode: the trigger ones end to end (a
// service event in, the workflow's effect or output checked), the scheduled ones run on a worker.

const ROSTER = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz'];
const POLL_EXAMPLE = example('new-leads-polling-to-spreadsheet.json').id;
const VERIFY_EXAMPLE = example('verified-webhook-events.json').id;

function newLeadOfAlpha() {
	return suite.sandbox.control
		.state()
		.leads.find(
			(l) => l.organization_id === 'org_alpha' && l.status === 'new' && l.assigned_to === null,
		)!;
}

/** Finished executions of a workflow, with their data, once there are at least `count`. */
async function finishedExecutions(workflowId: string, count: number, timeoutMs = 60_000) {
	return await waitFor(
		`${count} finished execution(s) of ${workflowId}`,
		async () => {
			const all = await listExecutions(suite.cluster.api, workflowId, true);
			const finished = all.filter((e) => e.status !== 'running' && e.status !== 'new');
			return finished.length >= count ? finished : undefined;
		},
		{ timeoutMs, intervalMs: 500 },
	);
}

export function exampleSpecs(): void {
	let pollLeads: string[] = [];

	beforeAll(async () => {
		// The polling example polls once a minute: activated first, so its poll falls inside
		// the other examples' time.
		await suite.cluster.activate(POLL_EXAMPLE);
		pollLeads = [0, 1].map(() => suite.sandbox.control.createChannelLead().id);
	});

	it('qualified-lead round robin: a qualified lead is assigned end to end through the cluster', async () => {
		const { cluster, sandbox } = suite;
		const workflow = example('qualified-lead-round-robin.json');
		// The example reads its roster from this n8n Data Table (made once for the cluster).
		await createAdvisorsRoster(
			cluster.api,
			ROSTER.map((user_id) => ({ user_id })),
		);
		await cluster.activate(workflow.id);
		const lead = newLeadOfAlpha();
		sandbox.control.qualifyLead(lead.id, 88);
		const assigned = await waitFor(
			'the lead to be assigned by the workflow',
			() => {
				const now = sandbox.control.state().leads.find((l) => l.id === lead.id)!;
				return now.status === 'assigned' ? now : undefined;
			},
			{ timeoutMs: 60_000 },
		).catch(() => undefined);
		const counts = await cluster.db.executionCounts(workflow.id);
		await cluster.deactivate(workflow.id);
		recordFigure({
			point: '6',
			test: 'round-robin example',
			figure: `lead ${assigned ? `assigned to ${assigned.assigned_to}` : 'not assigned'}; executions ${JSON.stringify(counts)}`,
			target: 'assigned to an advisor of the roster, 1 successful execution',
		});
		expect(assigned).toBeDefined();
		expect(ROSTER).toContain(assigned!.assigned_to);
		expect(counts).toEqual({ success: 1 });
	});

	it('verified webhook events: a service event comes out of Verified, a forged one out of Rejected', async () => {
		const { cluster, sandbox } = suite;
		await cluster.activate(VERIFY_EXAMPLE);
		const lead = newLeadOfAlpha();
		sandbox.control.qualifyLead(lead.id, 93);
		const [verified] = await finishedExecutions(VERIFY_EXAMPLE, 1);
		const forged = signedEvent('not-the-secret', 'lead_example_forged');
		const url = `${cluster.balancer.url}webhook/${PATHS.verifyExample}`;
		await post(url, forged.body, { 'X-Service-Signature': forged.signature });
		const [rejected] = await finishedExecutions(VERIFY_EXAMPLE, 2);
		await cluster.deactivate(VERIFY_EXAMPLE);
		const verifiedItems = nodeOutput(verified, 'Verified').map((i) => i.json);
		const rejectedItems = nodeOutput(rejected, 'Rejected').map((i) => i.json);
		recordFigure({
			point: '6',
			test: 'verified-webhook-events example',
			figure: `service event: ${verified.status}, Verified ${verifiedItems.length} item (${verifiedItems[0]?.event} ${verifiedItems[0]?.data?.id}); forged: ${rejected.status}, Rejected ${rejectedItems.map((i) => i.reason).join(', ')}, Verified ${nodeOutput(rejected, 'Verified').length}`,
			target: 'the event verified once; the forged one rejected (invalid_signature)',
		});
		expect(verified.status).toBe('success');
		expect(verifiedItems).toEqual([
			expect.objectContaining({
				event: 'lead.qualified',
				data: expect.objectContaining({ id: lead.id }),
			}),
		]);
		expect(rejectedItems).toEqual([expect.objectContaining({ reason: 'invalid_signature' })]);
		expect(nodeOutput(rejected, 'Verified')).toHaveLength(0);
	});

	it('the scheduled examples run on the workers (manual runs offloaded)', async () => {
		const { cluster, sandbox } = suite;
		const session = await N8nSession.signIn(cluster.mainServer());
		const figures: string[] = [];
		for (const file of ['leads-to-spreadsheet.json', 'stalled-conversation-nudge.json']) {
			const workflow = example(file);
			sandbox.control.clearRequests();
			const res = await session.request('POST', `/workflows/${workflow.id}/run`, {
				triggerToStartFrom: { name: 'Run now' },
			});
			expect(res.status).toBe(200);
			const [execution] = await finishedExecutions(workflow.id, 1, 120_000);
			const executionId = String(res.json?.data?.executionId ?? '');
			const onWorker = cluster.workers.some((w) =>
				cluster.workerExecutionIds(w).includes(executionId),
			);
			const calls = sandbox.control.requests().length;
			figures.push(
				`${workflow.id}: ${execution.status}, on a worker ${onWorker}, ${calls} service calls`,
			);
			expect(execution.status).toBe('success');
			expect(onWorker).toBe(true);
			expect(calls).toBeGreaterThan(0);
		}
		recordFigure({
			point: '6',
			test: 'scheduled examples',
			figure: figures.join('; '),
			target: 'each succeeds on a worker',
		});
	});

	it('new leads by polling: the leads created after activation reach the spreadsheet node, once', async () => {
		const executions = await finishedExecutions(POLL_EXAMPLE, 1, 90_000);
		await suite.cluster.deactivate(POLL_EXAMPLE);
		const announced = executions.flatMap((e) => nodeOutput(e, 'New lead').map((i) => i.json.id));
		const files = executions.flatMap((e) => nodeOutput(e, 'Spreadsheet file'));
		recordFigure({
			point: '6',
			test: 'new-leads-polling example',
			figure: `${executions.length} execution(s) (${executions.map((e) => e.status).join(', ')}), leads announced ${announced.length}, of them the 2 created after activation: ${pollLeads.filter((id) => announced.includes(id)).length}; spreadsheet files ${files.length}`,
			target: 'the 2 leads announced once, a spreadsheet file made, on a worker',
		});
		expect(executions.every((e) => e.status === 'success')).toBe(true);
		expect(announced).toEqual(expect.arrayContaining(pollLeads));
		expect(new Set(announced).size).toBe(announced.length);
		expect(files.length).toBeGreaterThan(0);
	});
}
