import { randomUUID } from 'crypto';

import { triggerWebhookPath } from '../../../harness/queue/workflows';
import { waitFor } from '../../../harness/real-n8n/processes';
import { createAdvisorsRoster } from '../../support/advisorsRoster';
import { recordFigure } from '../support/figures';
import { share } from '../support/scenarios';
import { deliveredToSubscription, totalExecutions } from '../support/service';
import { example, suite } from '../support/suite';

// Point 9: Lead → Assign in queue mode, the way the README tells queue users to set it up: the
// assignment example with Turns = Spread by Lead ID and its own roster table, made through n8n's
// public API. The fault proxy in front of nginx loses the first answer of every event, so the service retries and the
// trigger runs some events twice, on any worker. No lead may change advisor once it has one.

const TABLE = 'Queue advisors roster';
const PRESENT = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz', 'user_dario_sosa'];
const AWAY = 'user_elena_paz';
const MANUAL = 'user_manager_pick';
const LEADS = 200;
const IN_FLIGHT = 8;

/** The example as a queue user sets it: Spread by Lead ID, a table of its own, a new webhook. */
function queueVariant() {
	const shipped = example('qualified-lead-round-robin.json');
	const webhookId = randomUUID();
	const nodes = shipped.nodes.map((node) => {
		if (node.type.endsWith('.leadConversationsTrigger')) return { ...node, webhookId };
		if (node.name === 'Roster') {
			const parameters = {
				...node.parameters,
				dataTableId: { __rl: true, mode: 'name', value: TABLE },
			};
			return { ...node, parameters };
		}
		if (node.name === 'Assign the advisor') {
			return { ...node, parameters: { ...node.parameters, turns: 'spread' } };
		}
		return node;
	});
	const { connections, settings } = shipped as unknown as { connections: object; settings: object };
	return { webhookId, body: { name: 'Assign in queue mode', nodes, connections, settings } };
}

export function assignSpecs(): void {
	it('200 leads, 8 in flight, first answers lost: no lead changes advisor once it has one; the spread measured', async () => {
		const { cluster, sandbox } = suite;
		await createAdvisorsRoster(
			cluster.api,
			[...PRESENT.map((user_id) => ({ user_id })), { user_id: AWAY, away: true }],
			TABLE,
		);
		const { webhookId, body } = queueVariant();
		const created = await cluster.api.request('POST', '/workflows', body);
		expect(created.status).toBe(200);
		const workflowId = String(created.json.id);
		await cluster.activate(workflowId);
		const subscription = sandbox.control
			.webhooks()
			.find((w) => w.url.endsWith(`/${triggerWebhookPath(webhookId)}`))!;
		expect(subscription).toBeDefined();

		const leads = Array.from({ length: LEADS }, (_, index) =>
			sandbox.control.createChannelLead({
				name: `Queue Assign ${index + 1}`,
				status: 'in_conversation',
				assigned_to: index === 0 ? MANUAL : null,
			}),
		);
		const ids = new Set(leads.map((lead) => lead.id));
		// Every advisor each lead ever had, watched while the runs go on.
		const seen = new Map<string, Set<string>>();
		const watch = () => {
			for (const lead of sandbox.control.state().leads) {
				if (!ids.has(lead.id) || lead.assigned_to === null) continue;
				const advisors = seen.get(lead.id) ?? new Set<string>();
				advisors.add(lead.assigned_to);
				seen.set(lead.id, advisors);
			}
		};
		const watcher = setInterval(watch, 100);

		const finishedRuns = async () => {
			const counts = await cluster.db.executionCounts(workflowId);
			const finished = Object.entries(counts)
				.filter(([status]) => !['new', 'running', 'waiting'].includes(status))
				.reduce((sum, [, n]) => sum + n, 0);
			return { counts, finished, settled: !counts.new && !counts.running };
		};
		sandbox.control.setOptions({ retryScale: 0.2 });
		sandbox.control.clearDeliveries();
		sandbox.control.clearRequests();
		cluster.faults.loseFirstAnswers(true);
		let executions: Record<string, number> = {};
		try {
			// 8 events at a time; the next 8 once as many runs have finished.
			for (let start = 0; start < LEADS; start += IN_FLIGHT) {
				for (const lead of leads.slice(start, start + IN_FLIGHT)) {
					sandbox.control.qualifyLead(lead.id, 85);
				}
				const target = Math.min(start + IN_FLIGHT, LEADS);
				await waitFor(
					`${target} finished runs`,
					async () => ((await finishedRuns()).finished >= target ? true : undefined),
					{ timeoutMs: 180_000, intervalMs: 500 },
				);
			}
			// The service's retries of the lost answers come 12 s and 60 s later.
			await deliveredToSubscription(subscription.id, LEADS, 150_000);
			executions = await waitFor(
				'the runs to settle',
				async () => {
					const runs = await finishedRuns();
					return runs.settled ? runs.counts : undefined;
				},
				{ timeoutMs: 300_000, intervalMs: 1_000 },
			);
		} finally {
			cluster.faults.loseFirstAnswers(false);
			sandbox.control.setOptions({ retryScale: 1 });
			watch();
			clearInterval(watcher);
		}
		await cluster.deactivate(workflowId);

		const patches = sandbox.control
			.requests()
			.filter((r) => r.method === 'PATCH' && [...ids].some((id) => r.path === `/v1/leads/${id}`));
		const patchedTwice = new Set(patches.map((r) => r.path)).size;
		const changed = [...seen.entries()].filter(([, advisors]) => advisors.size > 1);
		const byId = new Map(sandbox.control.state().leads.map((lead) => [lead.id, lead]));
		const counts: Record<string, number> = {};
		for (const lead of leads.slice(1)) {
			const advisor = byId.get(lead.id)!.assigned_to ?? 'none';
			counts[advisor] = (counts[advisor] ?? 0) + 1;
		}
		const values = PRESENT.map((advisor) => counts[advisor] ?? 0);
		const runs = await totalExecutions(workflowId);
		recordFigure({
			point: '9',
			test: 'Lead → Assign, Spread by Lead ID, lost first answers',
			figure:
				`${runs} runs for ${LEADS} events (${share(runs - LEADS, LEADS)} extra), executions ${JSON.stringify(executions)}; ` +
				`PATCHes ${patches.length} for ${patchedTwice} leads; leads that changed advisor: ${changed.length}; ` +
				`per advisor ${JSON.stringify(counts)} (max − min ${Math.max(...values) - Math.min(...values)}); ` +
				`manual kept: ${byId.get(leads[0].id)!.assigned_to === MANUAL}`,
			target: 'no lead changes advisor; away 0; manual kept; spread measured',
		});
		expect(runs).toBeGreaterThan(LEADS);
		expect(changed).toEqual([]);
		expect(byId.get(leads[0].id)!.assigned_to).toBe(MANUAL);
		expect(counts[AWAY]).toBeUndefined();
		expect(counts.none).toBeUndefined();
		expect(values.every((n) => n > 0)).toBe(true);
	}, 1_200_000);
}
