import {
	listExecutions,
	nodeOutput,
	type ExecutionSummary,
} from '../../../harness/real-n8n/executions';
import { N8nSession } from '../../../harness/real-n8n/n8n-server';
import { waitFor } from '../../../harness/real-n8n/processes';
import { createAdvisorsRoster } from '../../support/advisorsRoster';
import { recordFigure } from '../support/figures';
import { post, signedEvent } from '../support/runs';
import { BETA_CREDENTIAL, example, PATHS, POLL_SECONDS, suite } from '../support/suite';
import {
	MIRROR_EXAMPLE,
	changeOrder,
	createLeadsTable,
	leadsOfAccount,
	mirrorDifferences,
	mirrorWorkflow,
	randomChange,
	readTableRows,
} from '../../../harness/real-n8n/leadsMirror';
import { pollTimesEvery } from '../../../harness/queue/pathWorkflows';
import { seededRandom } from '../../../harness/support/random';
import { ORG_BETA } from '../../../sandbox/constants';

// Point 6: the examples, imported as shipped, in queue mode: the trigger ones end to end (a
// service event in, the workflow's effect or output checked), the scheduled ones run on a worker,
// the leads mirror with its poll on main, its upserts on the workers and its table in Postgres.

const ROSTER = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz'];
/** Changes made to the leads while the mirror runs (each to a lead of its own). */
const MIRROR_CHANGES = 60;
/**
 * Leads of the account the mirror reads (Beta Autos, grown to this size): three pages of GET
 * /leads. The suite's main account holds some 1,400 leads by then, a minute of upserts to fill;
 * what this point adds to the end-to-end suite's mirror is where each part runs, not the size.
 */
const MIRROR_LEADS = 250;
const VERIFY_EXAMPLE = example('verified-webhook-events.json').id;
const UNFINISHED = ['new', 'running', 'waiting'];

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
			const finished = all.filter((e) => !UNFINISHED.includes(e.status));
			return finished.length >= count ? finished : undefined;
		},
		{ timeoutMs, intervalMs: 500 },
	);
}

/** The first finished execution of a workflow that `test` picks out. */
async function finishedExecutionWhere(
	workflowId: string,
	what: string,
	test: (execution: ExecutionSummary) => boolean,
) {
	return await waitFor(what, async () => (await finishedExecutions(workflowId, 0)).find(test), {
		timeoutMs: 60_000,
		intervalMs: 500,
	});
}

export function exampleSpecs(): void {
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
		// Picked out by content: the service may also send late retries of earlier events (their
		// first attempts met this workflow inactive), which run here too.
		const verified = await finishedExecutionWhere(VERIFY_EXAMPLE, 'the event verified', (e) =>
			nodeOutput(e, 'Verified').some((i) => i.json?.data?.id === lead.id),
		);
		const before = new Set((await finishedExecutions(VERIFY_EXAMPLE, 0)).map((e) => e.id));
		const forged = signedEvent('not-the-secret', 'lead_example_forged');
		const url = `${cluster.balancer.url}webhook/${PATHS.verifyExample}`;
		await post(url, forged.body, { 'X-Service-Signature': forged.signature });
		const rejected = await finishedExecutionWhere(
			VERIFY_EXAMPLE,
			'the forged event rejected',
			(e) => !before.has(e.id) && nodeOutput(e, 'Rejected').length > 0,
		);
		const executions = (await finishedExecutions(VERIFY_EXAMPLE, 0)).length;
		await cluster.deactivate(VERIFY_EXAMPLE);
		const verifiedItems = nodeOutput(verified, 'Verified').map((i) => i.json);
		const rejectedItems = nodeOutput(rejected, 'Rejected').map((i) => i.json);
		recordFigure({
			point: '6',
			test: 'verified-webhook-events example',
			figure: `service event: ${verified.status}, Verified ${verifiedItems.length} item (${verifiedItems[0]?.event} ${verifiedItems[0]?.data?.id}); forged: ${rejected.status}, Rejected ${rejectedItems.map((i) => i.reason).join(', ')}, Verified ${nodeOutput(rejected, 'Verified').length}; ${executions} execution(s) in all`,
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

	it('leads mirror: the poll on main, the upserts on the workers, the Data Table in Postgres equals GET /leads', async () => {
		const { cluster, sandbox } = suite;
		const account = { apiKey: sandbox.keys.otherOrganization, organizationId: ORG_BETA };
		const leadsNow = async () => await leadsOfAccount(sandbox, account.apiKey);
		for (let i = (await leadsNow()).length; i < MIRROR_LEADS; i++) {
			sandbox.control.createChannelLead({ organization_id: ORG_BETA, channel: 'web_form' });
		}
		const tableId = await createLeadsTable(cluster.api);
		const { name, nodes, connections, settings } = mirrorWorkflow(MIRROR_EXAMPLE, (parameters) => {
			parameters.pollTimes = pollTimesEvery(POLL_SECONDS);
			parameters.options = { ...(parameters.options as object), includeExistingLeads: true };
		});
		// The user's credential for that account on the polling trigger.
		const withAccount = nodes.map((node) =>
			String(node.type).endsWith('.leadConversationsPollTrigger')
				? { ...node, credentials: { leadConversationsApi: BETA_CREDENTIAL } }
				: node,
		);
		const created = await cluster.api.request('POST', '/workflows', {
			name,
			nodes: withAccount,
			connections,
			settings,
		});
		expect(created.status).toBe(200);
		const mirrorId = String(created.json.id);
		const compare = async () =>
			mirrorDifferences(await readTableRows(cluster.api, tableId), await leadsNow());
		const finishedRuns = async () =>
			(await cluster.db.executions(mirrorId)).filter((e) => !UNFINISHED.includes(e.status));
		// The table is compared once more after each run of the mirror that finishes (a poll
		// that finds nothing starts no run), until it equals GET /leads.
		const settled = async (what: string) => {
			let compared = -1;
			return await waitFor(
				what,
				async () => {
					const finished = (await finishedRuns()).length;
					if (finished === compared) return undefined;
					compared = finished;
					const differences = await compare();
					return Object.values(differences).flat().length === 0 ? differences : undefined;
				},
				{ timeoutMs: 300_000, intervalMs: 1_000 },
			).catch(async () => await compare());
		};

		const activatedAt = Date.now();
		await cluster.activate(mirrorId);
		const filled = await settled('the fill of the table');
		const fillSeconds = (Date.now() - activatedAt) / 1000;
		const filledLeads = (await leadsNow()).length;
		const random = seededRandom(6);
		const order = changeOrder(await leadsNow(), 6);
		sandbox.control.injectFaults({
			kind: 'delay',
			delayMs: 200,
			probability: 1,
			method: 'GET',
			pathPrefix: '/v1/leads',
		});
		for (let i = 0; i < MIRROR_CHANGES; i++) {
			await randomChange(sandbox, order[i], random, account);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		const changedAt = Date.now();
		const after = await settled('the changes to reach the table');
		const changeSeconds = (Date.now() - changedAt) / 1000;
		sandbox.control.clearFaults();
		await cluster.deactivate(mirrorId);
		const executions = await finishedRuns();
		const onWorkers = executions.every((e) =>
			cluster.workers.some((w) => cluster.workerExecutionIds(w).includes(String(e.id))),
		);
		const count = (d: typeof after) =>
			`differing cells ${d.differingCells.length}, missing ${d.missing.length}, extra ${d.extra.length}, duplicated ${d.duplicated.length}`;
		recordFigure({
			point: '6',
			test: 'leads-mirror example (Data Table in Postgres)',
			figure: `after the fill (${fillSeconds.toFixed(0)} s from activation, ${filledLeads} leads of one account): ${count(filled)}; after ${MIRROR_CHANGES} changes (in the table ${changeSeconds.toFixed(0)} s after the last): ${count(after)}; ${executions.length} execution(s) (${[...new Set(executions.map((e) => e.status))].join(', ')}), all on workers ${onWorkers}`,
			target: '0 differences after the fill and after the changes; upserts on the workers',
		});
		expect(filled).toEqual({ differingCells: [], missing: [], extra: [], duplicated: [] });
		expect(after).toEqual({ differingCells: [], missing: [], extra: [], duplicated: [] });
		expect(executions.length).toBeGreaterThanOrEqual(2);
		expect(executions.every((e) => e.status === 'success')).toBe(true);
		expect(onWorkers).toBe(true);
	}, 900_000);
}
