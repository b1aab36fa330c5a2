import { randomUUID } from 'crypto';

import { triggerWebhookPath } from '../../../harness/queue/workflows';
import { waitFor } from '../../../harness/real-n8n/processes';
import { createAdvisorsRoster } from '../../support/advisorsRoster';
import { recordFigure } from '../support/figures';
import { keyOfBody, post } from '../support/runs';
import { share } from '../support/scenarios';
import { totalExecutions } from '../support/service';
import { example, suite } from '../support/suite';

// Point 9: Lead → Assign in queue mode, the way the README tells queue users to set it up: the
// assignment example with Turns = Spread by Lead ID and its own roster table, made through n8n's
// public API. Each event the service delivers (through nginx) is sent once more, byte for byte
// with its signature, to each webhook process, as the service's retries reach either one: the
// process that did not take it runs it again, so every event runs twice, on any worker, at about
// the same time. No lead may change advisor once it has one.

const TABLE = 'Queue advisors roster';
const PRESENT = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz', 'user_dario_sosa'];
const AWAY = 'user_elena_paz';
const MANUAL = 'user_manager_pick';
const LEADS = 60;
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
	it(`${LEADS} leads, ${IN_FLIGHT} in flight, each event also sent to both webhook processes: no lead changes advisor once it has one; the spread measured`, async () => {
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
		const path = triggerWebhookPath(webhookId);
		/** The batch's deliveries, once answered, sent again to each webhook process; the answers. */
		const sendToBoth = async (leadIds: string[]) => {
			const wanted = new Set(leadIds);
			const deliveries = await waitFor(
				'the deliveries of the batch',
				() => {
					const found = sandbox.control
						.deliveries()
						.filter(
							(d) =>
								d.subscriptionId === subscription.id &&
								d.attempt === 1 &&
								wanted.has(keyOfBody(d.body).split('|')[1]),
						);
					return found.length >= leadIds.length ? found : undefined;
				},
				{ timeoutMs: 60_000, intervalMs: 100 },
			);
			const answers = await Promise.all(
				deliveries.flatMap((d) =>
					cluster.webhooks.map((p) =>
						post(`${p.url}/${path}`, d.body, { 'X-Service-Signature': d.signature }),
					),
				),
			);
			return answers.map((answer) => answer.status);
		};
		sandbox.control.clearDeliveries();
		sandbox.control.clearRequests();
		const copies: number[] = [];
		let executions: Record<string, number> = {};
		try {
			// 8 events at a time; the next 8 once every run of these has finished.
			for (let start = 0; start < LEADS; start += IN_FLIGHT) {
				const batch = leads.slice(start, start + IN_FLIGHT);
				for (const lead of batch) sandbox.control.qualifyLead(lead.id, 85);
				copies.push(...(await sendToBoth(batch.map((lead) => lead.id))));
				executions = await waitFor(
					`the runs of leads ${start + 1}–${start + batch.length}`,
					async () => {
						const runs = await finishedRuns();
						return runs.settled ? runs.counts : undefined;
					},
					{ timeoutMs: 120_000, intervalMs: 250 },
				);
			}
		} finally {
			watch();
			clearInterval(watcher);
		}
		const failedDeliveries = sandbox.control
			.deliveries()
			.filter((d) => d.subscriptionId === subscription.id && !d.ok).length;
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
			test: 'Lead → Assign, Spread by Lead ID, every event at both webhook processes',
			figure:
				`${runs} runs for ${LEADS} events (${share(runs - LEADS, LEADS)} extra), executions ${JSON.stringify(executions)}; ` +
				`service deliveries failed ${failedDeliveries}, copies to the processes answered ${copies.filter((c) => c === 200).length}/${copies.length} 200; ` +
				`PATCHes ${patches.length} for ${patchedTwice} leads; leads that changed advisor: ${changed.length}; ` +
				`per advisor ${JSON.stringify(counts)} (max − min ${Math.max(...values) - Math.min(...values)}); ` +
				`manual kept: ${byId.get(leads[0].id)!.assigned_to === MANUAL}`,
			target: 'no lead changes advisor; away 0; manual kept; spread measured',
		});
		expect(copies.every((status) => status === 200)).toBe(true);
		expect(runs).toBeGreaterThan(LEADS);
		expect(changed).toEqual([]);
		expect(byId.get(leads[0].id)!.assigned_to).toBe(MANUAL);
		expect(counts[AWAY]).toBeUndefined();
		expect(counts.none).toBeUndefined();
		expect(values.every((n) => n > 0)).toBe(true);
	}, 1_200_000);
}
