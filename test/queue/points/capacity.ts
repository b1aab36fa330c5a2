import { randomUUID } from 'crypto';

import { waitFor } from '../../../harness/real-n8n/processes';
import { createAdvisorsRoster } from '../../support/advisorsRoster';
import { assignmentWorkflow, createBody } from '../../support/speedToLead';
import {
	OverCapWatch,
	assignedPerAdvisor,
	closeLeads,
	mostAtOnce,
	readToWriteWindows,
	shiftAround,
} from '../support/capacity';
import { recordFigure } from '../support/figures';
import { totalExecutions } from '../support/service';
import { suite } from '../support/suite';

// Point 11: Capacity in queue mode. Each run of Lead → Assign counts the leads in status
// `assigned` once (GET /leads?status=assigned) and adds only its own assignments, so runs on the
// two workers at the same time may count the same load and both give a lead to an advisor with
// one place left. The assignment example as a queue user sets it (Spread by Lead ID; then Least
// Loaded), its roster in an n8n Data Table: two advisors on shift with caps 3 and 9, a third off
// shift. A burst of as many qualified leads as there is room on shift arrives at once, so every
// lead had a place under a cap: any lead over a cap is the race, and someone else had room. The
// service's state is sampled every 25 ms.

/** Minutes around the service's clock each shift runs; Chen's starts in 2 hours. */
const ADVISORS = [
	{ name: 'ana', zone: 'Europe/Madrid', from: -60, to: 120, capacity: 3, onShift: true },
	{ name: 'bruno', zone: 'America/New_York', from: -180, to: 300, capacity: 9, onShift: true },
	{ name: 'chen', zone: 'Asia/Tokyo', from: 120, to: 600, capacity: 4, onShift: false },
];
const ROOM = ADVISORS.filter((a) => a.onShift).reduce((sum, a) => sum + a.capacity, 0);
const SAMPLE_MS = 25;

type Turns = 'spread' | 'leastLoaded';

interface Burst {
	label: string;
	leadIds: string[];
	/** Per advisor, leads in status assigned at the end, and the most over the cap at any sample. */
	final: number[];
	mostOver: number[];
	/** The most any advisor was over while another on shift had room, at any sample. */
	overWithRoom: number;
	/** The burst's leads given to an advisor off shift. */
	offShift: number;
	unassigned: number;
	strangers: number;
	/** The most runs between reading their lead and writing it at one instant. */
	atOnce: number;
	counts: number;
	runs: number;
	failed: number;
	seconds: number;
}

interface Rig {
	tag: string;
	label: string;
	workflowId: string;
	/** The advisors' user IDs, in the order of ADVISORS. */
	ids: string[];
}

/** The roster table and the example with the given Turns, made and activated. */
async function rig(turns: Turns, tag: string): Promise<Rig> {
	const { cluster, sandbox } = suite;
	const nowMs = Date.parse(sandbox.control.clock().now);
	const ids = ADVISORS.map((a) => `user_cap_${tag}_${a.name}`);
	const table = `Capacity roster (${tag})`;
	await createAdvisorsRoster(
		cluster.api,
		ADVISORS.map((a, index) => ({
			user_id: ids[index],
			hours: shiftAround(nowMs, a.zone, a.from, a.to),
			time_zone: a.zone,
			capacity: a.capacity,
		})),
		table,
	);
	const workflow = assignmentWorkflow(
		{ roster: table, handoffs: '' },
		{ turns, webhookId: randomUUID() },
	);
	const body = { ...createBody(workflow), name: `Capacity in queue mode (${tag})` };
	const created = await cluster.api.request('POST', '/workflows', body);
	if (created.status !== 200) throw new Error(`POST /workflows: ${created.text}`);
	const workflowId = String(created.json.id);
	await cluster.activate(workflowId);
	const label = turns === 'spread' ? 'Spread by Lead ID' : 'Least Loaded';
	return { tag, label, workflowId, ids };
}

/** ROOM qualified leads at once; every read of a lead answered `slowReadMs` late. */
async function burst(rig: Rig, slowReadMs: number): Promise<Burst> {
	const { cluster, sandbox } = suite;
	const { ids, tag, workflowId } = rig;
	const before = await totalExecutions(workflowId);
	const leads = Array.from({ length: ROOM }, (_, index) =>
		sandbox.control.createChannelLead({
			name: `Capacity ${tag} ${slowReadMs} ${index + 1}`,
			status: 'in_conversation',
		}),
	);
	const leadIds = leads.map((lead) => lead.id);
	const watch = new OverCapWatch(sandbox, ids, ADVISORS);
	if (slowReadMs > 0) {
		const slow = { kind: 'delay', delayMs: slowReadMs, probability: 1, method: 'GET' } as const;
		sandbox.control.injectFaults({ ...slow, pathPrefix: '/v1/leads' });
	}
	const startedMs = Date.now();
	const sampler = setInterval(() => watch.sample(), SAMPLE_MS);
	let runs = 0;
	try {
		for (const id of leadIds) sandbox.control.qualifyLead(id, 85);
		runs = await waitFor(
			`the ${ROOM} leads of the ${tag} burst assigned and every run finished`,
			async () => {
				const byId = new Map(sandbox.control.state().leads.map((lead) => [lead.id, lead]));
				if (leadIds.some((id) => !byId.get(id)!.assigned_to)) return undefined;
				const counts = await cluster.db.executionCounts(workflowId);
				const finished = Object.entries(counts)
					.filter(([status]) => !['new', 'running', 'waiting'].includes(status))
					.reduce((sum, [, n]) => sum + n, 0);
				const settled = !counts.new && !counts.running && finished - before >= ROOM;
				return settled ? finished - before : undefined;
			},
			{ timeoutMs: 90_000, intervalMs: 100 },
		);
	} finally {
		watch.sample();
		clearInterval(sampler);
		sandbox.control.clearFaults();
	}
	const seconds = (Date.now() - startedMs) / 1000;
	const byId = new Map(sandbox.control.state().leads.map((lead) => [lead.id, lead]));
	const advisors = leadIds.map((id) => byId.get(id)!.assigned_to);
	const counts = sandbox.control
		.requests()
		.filter((r) => r.method === 'GET' && r.path === '/v1/leads' && r.query.status === 'assigned')
		.filter((r) => r.at >= startedMs).length;
	const failed = (await cluster.db.executionCounts(workflowId)).error ?? 0;
	const result: Burst = {
		label: `${rig.label}, ${slowReadMs > 0 ? `reads answered ${slowReadMs} ms late` : 'reads as they come'}`,
		leadIds,
		final: assignedPerAdvisor(sandbox, ids),
		mostOver: watch.mostOver,
		overWithRoom: watch.overWithRoom,
		offShift: advisors.filter((a) => ADVISORS.some((b, i) => !b.onShift && ids[i] === a)).length,
		unassigned: advisors.filter((a) => !a).length,
		strangers: advisors.filter((a) => a && !ids.includes(a)).length,
		atOnce: mostAtOnce(readToWriteWindows(sandbox, leadIds)),
		counts,
		runs,
		failed,
		seconds,
	};
	return result;
}

function describeBurst(result: Burst): string {
	const per = ADVISORS.map(
		(a, i) =>
			`${a.name}${a.onShift ? '' : ' (off shift)'} ${result.final[i]} of ${a.capacity}, most over ${result.mostOver[i]}`,
	);
	return (
		`${result.label}: ${ROOM} leads at once: ${per.join('; ')}; given off shift ${result.offShift}; over a cap while another had room ` +
		`${result.overWithRoom}; unassigned ${result.unassigned}; at most ${result.atOnce} runs between ` +
		`read and PATCH at once; ${result.counts} count reads; ${result.runs} runs; ${result.seconds.toFixed(1)} s`
	);
}

/** Reads answered this late stand in for a large account, whose count takes many pages. */
const SLOW_READ_MS = 1000;

export function capacitySpecs(): void {
	it(`${ROOM} qualified leads at once on two workers, caps 3 and 9 on shift, one advisor off shift: every lead assigned, none off shift, over a cap by at most workers − 1, one assignment at a time in each (Spread by Lead ID, Least Loaded; reads as they come and ${SLOW_READ_MS} ms late)`, async () => {
		const { cluster } = suite;
		// Each worker lets one assignment that counts through at a time, whatever its concurrency.
		const workers = cluster.workers.length;
		const startedMs = Date.now();
		const results: Burst[] = [];
		for (const [turns, tag] of [
			['spread', 'spread'],
			['leastLoaded', 'least'],
		] as const) {
			const made = await rig(turns, tag);
			try {
				// Each burst's leads are closed after it: the next starts with room, and the points
				// after this one find no lead of it waiting in status assigned.
				for (const slowReadMs of [0, SLOW_READ_MS]) {
					const result = await burst(made, slowReadMs);
					results.push(result);
					await closeLeads(suite.sandbox, result.leadIds);
				}
			} finally {
				await cluster.deactivate(made.workflowId).catch(() => undefined);
			}
		}
		const pointSeconds = (Date.now() - startedMs) / 1000;
		for (const result of results) {
			recordFigure({
				point: '11',
				test: `Capacity, ${result.label}`,
				figure: describeBurst(result),
				target: `every lead assigned, 0 off shift, ≤ ${workers} between read and PATCH at once, over a cap ≤ ${workers - 1} (${workers} workers − 1)`,
			});
		}
		process.stdout.write(`\n[queue] point 11 took ${pointSeconds.toFixed(0)} s\n`);
		for (const result of results) {
			expect(result.unassigned).toBe(0);
			expect(result.strangers).toBe(0);
			expect(result.failed).toBe(0);
			expect(result.offShift).toBe(0);
			expect(result.final.reduce((sum, n) => sum + n, 0)).toBe(ROOM);
			expect(result.atOnce).toBeLessThanOrEqual(workers);
			for (const over of result.mostOver) expect(over).toBeLessThanOrEqual(workers - 1);
		}
	}, 300_000);
}
