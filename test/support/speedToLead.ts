import { readFileSync } from 'fs';
import { join } from 'path';

import type { RunningSandbox, StoredLead } from '../../sandbox';
import { listExecutions, nodeOutput } from '../../harness/real-n8n/executions';
import type { N8nPublicApi } from '../../harness/real-n8n/n8n-server';
import { examplesDir } from '../../harness/real-n8n/paths';
import { waitFor } from '../../harness/real-n8n/processes';
import { readTableRows } from '../../harness/real-n8n/leadsMirror';
import { pollTimesEvery } from '../../harness/queue/pathWorkflows';
import { HAND_OFFS_COLUMN_NAMES, HAND_OFF_OUTCOMES } from '../../harness/support/handOffsTable';
import { moveIntoOpenHours } from '../../harness/support/showroomHours';

// The speed-to-lead recipe (examples/reroute-uncontacted-leads.json) proven from the outside, in
// real n8n (one process, or queue mode): 40 qualified leads are assigned by the round-robin
// example; advisors answer 25 and close 5; the service's clock passes the 15-minute wait; the
// other 10 must be passed on once each to an advisor who fits and never had them; 6 of those
// are answered; n8n (or its main) restarts; the clock passes the wait again; the 4 left must be
// escalated. What happened is read from the service's state and request log, n8n's executions
// and the hand-off table; `expectSpeedCounts` holds it to the promise.

export const RECIPE_FILE = 'reroute-uncontacted-leads.json';
export const ASSIGNMENT_FILE = 'qualified-lead-round-robin.json';
export const RECIPE_TRIGGER = 'Lead waited 15 minutes';
const MINUTE = 60_000;

export interface RosterRow {
	user_id: string;
	weight?: number | null;
	away?: boolean;
	channels?: string | null;
	intents?: string | null;
	min_score?: number | null;
	vehicle_words?: string | null;
	hours?: string | null;
	time_zone?: string | null;
	capacity?: number | null;
}

/** Three advisors without a rule, two for pickups (one also wants a score of 80+), one away. */
export const SPEED_ROSTER: RosterRow[] = [
	{ user_id: 'user_ana_lopez' },
	{ user_id: 'user_bruno_diaz' },
	{ user_id: 'user_carla_ruiz' },
	{ user_id: 'user_dario_sosa', vehicle_words: 'pickup, truck' },
	{ user_id: 'user_elena_paz', vehicle_words: 'truck', min_score: 80 },
	{ user_id: 'user_felix_mora', away: true },
];

export interface SpeedTables {
	roster: string;
	handoffs: string;
}

export const SHIPPED_TABLES: SpeedTables = {
	roster: 'Advisors roster',
	handoffs: 'Lead hand-offs',
};

const ROSTER_COLUMNS = [
	{ name: 'user_id', type: 'string' },
	{ name: 'weight', type: 'number' },
	{ name: 'away', type: 'boolean' },
	{ name: 'channels', type: 'string' },
	{ name: 'intents', type: 'string' },
	{ name: 'min_score', type: 'number' },
	{ name: 'vehicle_words', type: 'string' },
	{ name: 'hours', type: 'string' },
	{ name: 'time_zone', type: 'string' },
	{ name: 'capacity', type: 'number' },
];

/** The hand-off table's columns, all text, as the recipe's sticky note lists them. */
export const HANDOFF_COLUMNS = HAND_OFFS_COLUMN_NAMES.map((name) => ({
	name,
	type: 'string' as const,
}));

export async function createTable(
	api: N8nPublicApi,
	name: string,
	columns: object[],
	rows: object[] = [],
): Promise<string> {
	const table = await api.request('POST', '/data-tables', { name, columns });
	if (table.status !== 201) throw new Error(`POST /data-tables: ${table.status} ${table.text}`);
	const id = String(table.json.id);
	if (rows.length > 0) {
		const inserted = await api.request('POST', `/data-tables/${id}/rows`, { data: rows });
		if (inserted.status >= 300) throw new Error(`POST rows: ${inserted.status} ${inserted.text}`);
	}
	return id;
}

/** The two tables the recipe names, made as a person makes them; returns the hand-offs table's ID. */
export async function createSpeedTables(
	api: N8nPublicApi,
	tables: SpeedTables,
	roster: RosterRow[] = SPEED_ROSTER,
): Promise<string> {
	const rows = roster.map((row) => ({
		weight: 1,
		away: false,
		channels: null,
		intents: null,
		min_score: null,
		vehicle_words: null,
		hours: null,
		time_zone: null,
		capacity: null,
		...row,
	}));
	await createTable(api, tables.roster, ROSTER_COLUMNS, rows);
	return await createTable(api, tables.handoffs, HANDOFF_COLUMNS);
}

interface WorkflowJson {
	id: string;
	name: string;
	nodes: any[];
	connections: object;
	settings: object;
	pinData?: object;
}

function readExample(file: string): WorkflowJson {
	return JSON.parse(readFileSync(join(examplesDir, file), 'utf8')) as WorkflowJson;
}

/** An example as shipped, with only its table names (and, given, its Poll Times) bound. */
function bound(file: string, tables: SpeedTables, edit?: (node: any) => any): WorkflowJson {
	const workflow = readExample(file);
	const names: Record<string, string> = {
		[SHIPPED_TABLES.roster]: tables.roster,
		[SHIPPED_TABLES.handoffs]: tables.handoffs,
	};
	workflow.nodes = workflow.nodes.map((shipped) => {
		let node = shipped;
		const table = node.parameters?.dataTableId;
		if (node.type === 'n8n-nodes-base.dataTable' && names[table?.value]) {
			const dataTableId = { ...table, value: names[table.value] };
			node = { ...node, parameters: { ...node.parameters, dataTableId } };
		}
		return edit ? edit(node) : node;
	});
	return workflow;
}

/** The recipe polling every `pollSeconds` seconds (n8n takes several fixed-second entries). */
export function recipeWorkflow(tables: SpeedTables, pollSeconds: number): WorkflowJson {
	return bound(RECIPE_FILE, tables, (node) =>
		node.name === RECIPE_TRIGGER
			? { ...node, parameters: { ...node.parameters, pollTimes: pollTimesEvery(pollSeconds) } }
			: node,
	);
}

/** The round-robin example that assigns the qualified leads first; Turns and webhook as given. */
export function assignmentWorkflow(
	tables: SpeedTables,
	options: { turns?: 'rotation' | 'spread' | 'leastLoaded'; webhookId?: string } = {},
): WorkflowJson {
	return bound(ASSIGNMENT_FILE, tables, (node) => {
		if (options.webhookId && node.webhookId) return { ...node, webhookId: options.webhookId };
		if (options.turns && node.parameters?.operation === 'assign') {
			return { ...node, parameters: { ...node.parameters, turns: options.turns } };
		}
		return node;
	});
}

/** For the public API's POST /workflows, which takes no id or pin data. */
export function createBody(workflow: WorkflowJson) {
	const { name, nodes, connections, settings } = workflow;
	return { name, nodes, connections, settings };
}

const words = (value: string | null | undefined) =>
	(value ?? '')
		.split(',')
		.map((word) => word.trim().toLowerCase())
		.filter(Boolean);

function hasRule(row: RosterRow): boolean {
	return (
		words(row.channels).length > 0 ||
		words(row.intents).length > 0 ||
		(typeof row.min_score === 'number' && row.min_score > 0) ||
		words(row.vehicle_words).length > 0
	);
}

function fits(row: RosterRow, lead: StoredLead): boolean {
	const channels = words(row.channels);
	const intents = words(row.intents);
	const vehicle = (lead.vehicle_interest ?? '').toLowerCase();
	const vehicleWords = words(row.vehicle_words);
	return (
		(channels.length === 0 || channels.includes(lead.channel)) &&
		(intents.length === 0 || intents.includes(lead.intent)) &&
		(typeof row.min_score !== 'number' || lead.score >= row.min_score) &&
		(vehicleWords.length === 0 || vehicleWords.some((word) => vehicle.includes(word)))
	);
}

/** Who may get this lead: present advisors not skipped whose rules fit, else those without rules. */
export function allowedAdvisors(roster: RosterRow[], lead: StoredLead, skip: string[]): string[] {
	const present = roster.filter((row) => !row.away && !skip.includes(row.user_id));
	const fitting = present.filter((row) => hasRule(row) && fits(row, lead));
	return (fitting.length > 0 ? fitting : present.filter((row) => !hasRule(row))).map(
		(row) => row.user_id,
	);
}

export interface SpeedRig {
	sandbox: RunningSandbox;
	/** n8n's public API (of main, in queue mode); it may change after `start`. */
	api(): N8nPublicApi;
	recipeId: string;
	assignmentId: string;
	handoffsTableId: string;
	pollSeconds: number;
	roster: RosterRow[];
	/** Stop n8n (its main in queue mode) and start it again, around what happens while it is down. */
	stop(): Promise<void>;
	start(): Promise<void>;
}

export interface RecipeRun {
	status: string;
	leads: Array<{ id: string; misses: number; missed_by: string[] }>;
	/** The leads its Remove Duplicates node let through (once per lead and advisor). */
	passed: string[];
}

export const RECIPE_GUARD = 'Once per lead and advisor';

export interface SpeedReport {
	leads: StoredLead[];
	/** Every advisor each lead had, in order, as the service's state showed it every 100 ms. */
	advisors: Map<string, string[]>;
	answered: string[];
	closed: string[];
	missed: string[];
	answeredAfterHandOff: string[];
	escalated: string[];
	/** The service's clock when the lead was passed on, minus when its wait started, in minutes. */
	handOffAfterMinutes: number[];
	/** Real ms from the clock passing each wait to the PATCH (re-route) or row (escalation). */
	handOffDelayMs: number[];
	escalationDelayMs: number;
	recipeRuns: RecipeRun[];
	assignmentRuns: Record<string, number>;
	/** Deliveries the service sent again (no answer from n8n within its 10 s, as under load). */
	resentDeliveries: number;
	/** The attempts that failed, by the answer's status or the error (say, a time-out). */
	failedAttempts: Record<string, number>;
	handoffRows: any[];
	/** Requests n8n sent (both workflows, the trigger's polls), by kind. */
	requests: {
		polls: number;
		leadReads: number;
		patches: number;
		conversationLists: number;
		conversationReads: number;
		messages: number;
	};
	seconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runSpeedToLead(rig: SpeedRig): Promise<SpeedReport> {
	const started = Date.now();
	const { sandbox } = rig;
	const control = sandbox.control;
	const deliveriesSince = () => control.deliveries().filter((delivery) => delivery.at >= started);
	const pollMs = rig.pollSeconds * 1000;
	const polls = () =>
		control.requests().filter((r) => r.path === '/v1/leads' && r.query.status === 'assigned')
			.length;
	const nextPolls = async (count: number) => {
		const before = polls();
		await waitFor(`${count} poll(s)`, () => (polls() >= before + count ? true : undefined), {
			timeoutMs: count * pollMs + 60_000,
			intervalMs: 200,
		});
	};
	const asAdvisor = async (method: string, path: string, body: object) => {
		const res = await fetch(`${sandbox.baseUrl}${path}`, {
			method,
			headers: { 'Content-Type': 'application/json', 'X-API-Key': sandbox.keys.full },
			body: JSON.stringify(body),
		});
		if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
	};
	const answer = async (leadId: string) => {
		const conversation = control
			.state()
			.conversations.find((c) => c.lead_id === leadId && c.status === 'open');
		if (!conversation) throw new Error(`No open conversation for ${leadId}`);
		await asAdvisor('POST', `/conversations/${conversation.id}/messages`, {
			content: 'Hi, this is your advisor: when can I call you?',
		});
	};

	// 40 leads write in, 30 about a sedan and 10 about a pickup, and are qualified.
	const leads = Array.from({ length: 40 }, (_, index) => {
		const lead = control.createChannelLead({
			name: `Speed Lead ${index + 1}`,
			channel: 'chat_app',
			status: 'in_conversation',
			vehicle_interest: index < 30 ? 'Sedan, automatic' : 'Pickup truck, diesel',
		});
		control.leadWrites(lead.id, {
			content: `Hello, I would like to buy a ${lead.vehicle_interest}`,
		});
		return lead;
	});
	const ids = new Set(leads.map((lead) => lead.id));
	const advisors = new Map<string, string[]>();
	const watch = () => {
		for (const lead of control.state().leads) {
			if (!ids.has(lead.id) || lead.assigned_to === null) continue;
			const seen = advisors.get(lead.id) ?? [];
			if (seen.at(-1) !== lead.assigned_to) seen.push(lead.assigned_to);
			advisors.set(lead.id, seen);
		}
	};
	const watcher = setInterval(watch, 100);
	const byId = () => new Map(control.state().leads.map((lead) => [lead.id, lead]));
	const since = Date.now();
	try {
		for (const lead of leads) control.qualifyLead(lead.id, 85);
		await waitFor(
			'the round-robin example to assign all 40',
			() => {
				const now = byId();
				return leads.every((lead) => now.get(lead.id)!.status === 'assigned') ? true : undefined;
			},
			{ timeoutMs: 120_000, intervalMs: 250 },
		);
		// One poll sees them all assigned: every wait has started.
		await nextPolls(1);
		const at = (index: number) => leads[index].id;
		const answered = [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18, 20, 21, 22, 24, 25]
			.concat([31, 32, 34, 35, 37])
			.map(at);
		const closed = [26, 27, 28, 29, 38].map(at);
		const missed = [3, 7, 11, 15, 19, 23, 30, 33, 36, 39].map(at);
		const answeredAfterHandOff = [3, 7, 11, 15, 30, 33].map(at);
		const escalated = [19, 23, 36, 39].map(at);

		// Two minutes in (past the 60 s of the notice), advisors answer 25 and close 5.
		control.advanceClock(2 * MINUTE);
		for (const id of answered) await answer(id);
		for (const id of closed) await asAdvisor('PATCH', `/leads/${id}`, { status: 'closed' });
		const waitStarts = new Map(missed.map((id) => [id, byId().get(id)!.updated_at]));
		// The recipe counts its waits in opening hours: if fewer than 3 open hours are ahead, the
		// service's clock moves to the next opening (the assignments came by webhook, whose
		// deliveries must be on n8n's time, so the move waits until the advisors have answered).
		moveIntoOpenHours(control);
		control.advanceClock(14 * MINUTE);
		const firstWaitOver = Date.now();
		await waitFor(
			'the 10 leads to be passed on',
			() => {
				watch();
				return missed.every((id) => (advisors.get(id) ?? []).length >= 2) ? true : undefined;
			},
			{ timeoutMs: pollMs + 90_000, intervalMs: 100 },
		);
		const patchTimes = new Map<string, number>();
		for (const r of control.requests()) {
			const id = r.path.split('/').pop()!;
			if (r.method === 'PATCH' && r.at >= firstWaitOver && missed.includes(id)) {
				patchTimes.set(id, patchTimes.get(id) ?? r.at);
			}
		}
		const after = byId();
		const handOffAfterMinutes = missed.map(
			(id) => (Date.parse(after.get(id)!.updated_at) - Date.parse(waitStarts.get(id)!)) / MINUTE,
		);
		// The notices are posted and the new advisors' waits seen, then n8n goes down.
		await waitForRuns(rig, 1);
		await nextPolls(1);
		await rig.stop();
		control.advanceClock(2 * MINUTE);
		for (const id of answeredAfterHandOff) await answer(id);
		control.advanceClock(14 * MINUTE);
		const secondWaitOver = Date.now();
		await rig.start();
		const rows = await waitFor(
			'the 4 escalations',
			async () => {
				const found = await readTableRows(rig.api(), rig.handoffsTableId);
				return found.filter((row) => row.outcome === HAND_OFF_OUTCOMES.escalated).length >= 4
					? found
					: undefined;
			},
			{ timeoutMs: pollMs + 120_000, intervalMs: 250 },
		);
		const escalationDelayMs = Date.now() - secondWaitOver;
		await waitForRuns(rig, 2);
		// Two more polls: nothing else may happen.
		await nextPolls(2);
		await sleep(2_000);
		watch();

		const recipeRuns = await recipeRunsOf(rig);
		const handoffRows = await readTableRows(rig.api(), rig.handoffsTableId);
		const requests = control.requests().filter((r) => r.at >= since);
		const leadPath = /^\/v1\/leads\/lead_/;
		return {
			leads: leads.map((lead) => after.get(lead.id)!),
			advisors,
			answered,
			closed,
			missed,
			answeredAfterHandOff,
			escalated,
			handOffAfterMinutes,
			handOffDelayMs: missed.map((id) => patchTimes.get(id)! - firstWaitOver),
			escalationDelayMs,
			recipeRuns,
			assignmentRuns: await runCounts(rig, rig.assignmentId),
			resentDeliveries: deliveriesSince().filter((delivery) => delivery.attempt > 1).length,
			failedAttempts: countBy(
				deliveriesSince()
					.filter((delivery) => !delivery.ok)
					.map((delivery) => String(delivery.status ?? delivery.error)),
			),
			handoffRows: handoffRows.length ? handoffRows : rows,
			requests: {
				polls: requests.filter((r) => r.path === '/v1/leads' && r.query.status === 'assigned')
					.length,
				leadReads: requests.filter((r) => r.method === 'GET' && leadPath.test(r.path)).length,
				// Less the test's own: it closes 5 leads and answers 31 times, as the advisors.
				patches:
					requests.filter((r) => r.method === 'PATCH' && leadPath.test(r.path)).length -
					closed.length,
				conversationLists: requests.filter((r) => r.path === '/v1/conversations').length,
				conversationReads: requests.filter(
					(r) => r.method === 'GET' && /^\/v1\/conversations\/conv_/.test(r.path),
				).length,
				messages:
					requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).length -
					answered.length -
					answeredAfterHandOff.length,
			},
			seconds: (Date.now() - started) / 1000,
		};
	} catch (error) {
		// What n8n and the table hold, so that a failure can be read from the log alone.
		const runs = await recipeRunsOf(rig).catch((e: Error) => e.message);
		const rows = await readTableRows(rig.api(), rig.handoffsTableId).catch((e: Error) => e.message);
		(error as Error).message +=
			`\nrecipe runs: ${JSON.stringify(runs)}\nhand-off rows: ${JSON.stringify(rows)}` +
			`\nadvisors: ${JSON.stringify([...advisors])}`;
		throw error;
	} finally {
		clearInterval(watcher);
	}
}

function countBy(values: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
	return counts;
}

async function runCounts(rig: SpeedRig, workflowId: string): Promise<Record<string, number>> {
	return countBy((await listExecutions(rig.api(), workflowId)).map((run) => run.status));
}

async function waitForRuns(rig: SpeedRig, count: number): Promise<void> {
	await waitFor(
		`${count} finished run(s) of the recipe`,
		async () => {
			const runs = await listExecutions(rig.api(), rig.recipeId);
			const finished = runs.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
			return finished.length >= count ? true : undefined;
		},
		{ timeoutMs: 120_000, intervalMs: 300 },
	);
}

async function recipeRunsOf(rig: SpeedRig): Promise<RecipeRun[]> {
	const executions = await listExecutions(rig.api(), rig.recipeId, true);
	return executions.reverse().map((execution) => ({
		status: execution.status,
		leads: nodeOutput(execution, RECIPE_TRIGGER).map(({ json }) => ({
			id: json.id,
			misses: json.misses,
			missed_by: json.missed_by,
		})),
		passed: nodeOutput(execution, RECIPE_GUARD).map(({ json }) => String(json.id)),
	}));
}

/** The whole promise, each count asserted; `rig` for the roster. */
export function expectSpeedCounts(rig: SpeedRig, report: SpeedReport): void {
	const { advisors, missed, escalated } = report;
	const initial = new Map([...advisors].map(([id, seen]) => [id, seen[0]]));
	// Every lead assigned once by the round-robin example, to an advisor who fits. A delivery the
	// service sent again may start one more run, which finds the lead assigned and leaves it (one
	// assignment PATCH per lead, below).
	expect(Object.keys(report.assignmentRuns)).toEqual(['success']);
	expect(report.assignmentRuns.success).toBeGreaterThanOrEqual(40);
	expect(report.assignmentRuns.success).toBeLessThanOrEqual(40 + report.resentDeliveries);
	for (const lead of report.leads) {
		expect(allowedAdvisors(rig.roster, lead, [])).toContain(initial.get(lead.id));
	}
	// The recipe's runs: the 10 with one miss, then the 4 with two, each once past its guard. A
	// poll n8n emits again (the next one read its position before the last was stored) may add a
	// run with the same leads; the guard lets none of them through.
	expect(report.recipeRuns.every((run) => run.status === 'success')).toBe(true);
	const raised = (misses: number) => [
		...new Set(
			report.recipeRuns.flatMap((run) =>
				run.leads.filter((lead) => lead.misses === misses).map((lead) => lead.id),
			),
		),
	];
	expect(raised(1).sort()).toEqual([...missed].sort());
	expect(raised(2).sort()).toEqual([...escalated].sort());
	expect(report.recipeRuns.flatMap((run) => run.leads).every((l) => l.misses <= 2)).toBe(true);
	const passed = report.recipeRuns.flatMap((run) => run.passed);
	expect(passed.sort()).toEqual([...missed, ...escalated].sort());
	for (const run of report.recipeRuns) {
		for (const lead of run.leads.filter((l) => l.misses === 2)) {
			expect(lead.missed_by).toEqual(advisors.get(lead.id));
		}
	}
	// Passed on exactly once, to someone else who fits; no lead ever back with one who let it wait.
	const byId = new Map(report.leads.map((lead) => [lead.id, lead]));
	for (const lead of report.leads) {
		const seen = advisors.get(lead.id)!;
		expect(new Set(seen).size).toBe(seen.length);
		expect(seen).toHaveLength(missed.includes(lead.id) ? 2 : 1);
		if (seen.length === 2) expect(allowedAdvisors(rig.roster, lead, [seen[0]])).toContain(seen[1]);
		expect(byId.get(lead.id)!.assigned_to).toBe(seen.at(-1));
	}
	for (const minutes of report.handOffAfterMinutes) expect(minutes).toBeGreaterThanOrEqual(15);
	// The hand-off table: 10 passed on, 4 escalated, one row per lead and outcome.
	const rows = (outcome: string) => report.handoffRows.filter((row) => row.outcome === outcome);
	expect(
		rows(HAND_OFF_OUTCOMES.passedOn)
			.map((row) => row.lead_id)
			.sort(),
	).toEqual([...missed].sort());
	expect(
		rows(HAND_OFF_OUTCOMES.escalated)
			.map((row) => row.lead_id)
			.sort(),
	).toEqual([...escalated].sort());
	for (const row of rows(HAND_OFF_OUTCOMES.passedOn))
		expect(row.advisor).toBe(advisors.get(row.lead_id)![1]);
	expect(report.handoffRows).toHaveLength(14);
	// Service side: one assignment PATCH per lead, one hand-off PATCH per lead passed on.
	expect(report.requests.patches).toBe(40 + missed.length);
	const closed = report.leads.filter((lead) => lead.status === 'closed').map((lead) => lead.id);
	expect(closed.sort()).toEqual([...report.closed].sort());
}

export function speedFigure(report: SpeedReport): string {
	const max = (values: number[]) => Math.max(...values);
	const r = report.requests;
	return (
		`40 assigned (${JSON.stringify(report.assignmentRuns)} round-robin runs, ${report.resentDeliveries} deliveries sent again; failed attempts ${JSON.stringify(report.failedAttempts)}); answered 25, closed 5; ` +
		`recipe runs ${report.recipeRuns.length} (${report.recipeRuns.map((run) => `${run.status}: ${run.leads.length} raised, ${run.passed.length} past the guard`).join('; ')}); ` +
		`hand-off rows ${report.handoffRows.length}; hand-off at ≥ ${Math.min(...report.handOffAfterMinutes).toFixed(1)} min of wait, ` +
		`at most ${(max(report.handOffDelayMs) / 1000).toFixed(1)} s after the wait ended; escalations ${(report.escalationDelayMs / 1000).toFixed(1)} s after the wait (restart included); ` +
		`requests: polls ${r.polls}, lead GETs ${r.leadReads}, PATCHes ${r.patches}, conversation lists ${r.conversationLists}, conversation reads ${r.conversationReads}, messages ${r.messages}; ` +
		`${report.seconds.toFixed(0)} s`
	);
}
