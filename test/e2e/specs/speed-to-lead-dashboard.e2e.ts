import { readFileSync, statSync } from 'fs';
import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { waitForTriggerStatus } from '../../../harness/real-n8n/executions';
import { httpCall } from '../../../harness/real-n8n/http';
import {
	startN8nWithApi,
	type N8nPublicApi,
	type N8nServer,
} from '../../../harness/real-n8n/n8n-server';
import { examplesDir, repoRoot } from '../../../harness/real-n8n/paths';
import { runCommand, tail } from '../../../harness/real-n8n/processes';
import {
	importWorkflows,
	prepareUserFolder,
	writeWorkflowFiles,
} from '../../../harness/real-n8n/setup';
import { pollTimesEvery } from '../../../harness/queue/pathWorkflows';
import { HANDOFF_COLUMNS, createTable } from '../../support/speedToLead';
import {
	LAST_WEEK,
	THIS_WEEK,
	Dealership,
	expectedFigures,
	firstContactRows,
	isoWeek,
	playWeek,
	wednesdayAfter,
	type AdvisorFigures,
	type HandOffRow,
	type StartedWait,
} from '../support/dashboard';

// examples/speed-to-lead-dashboard.json in a real n8n 2.41.1 (one process, HTTP), as shipped
// but for its Poll Times (every 5 s): the Polling Trigger's Assigned Lead Contacted fills "First
// contacts"; its page, served by n8n's own webhook, is opened in headless Chromium. Two weeks of
// 40 assigned leads on the service's clock (test/e2e/support/dashboard.ts): each first contact
// must carry the response time the scenario chose, to the second, and every figure of the page
// must equal the one computed from the scenario. Hand-offs and escalations are rows written to
// "Lead hand-offs" as the reroute example writes them (that example's own proof is
// speed-to-lead.e2e.ts). The workflow's time zone is not UTC, to hold the week edges to it.

const ZONE = 'Europe/Madrid';
const TRIGGER = 'Advisor reached a lead';
// LC_DASHBOARD_PICTURE=docs/speed-to-lead-dashboard.png refreshes the README's picture.
const PICTURE = process.env.LC_DASHBOARD_PICTURE;

const FIRST_CONTACT_COLUMNS = [
	...['lead_id', 'lead_name', 'advisor', 'waiting_since', 'contacted_at', 'channel'].map(
		(name) => ({
			name,
			type: 'string',
		}),
	),
	{ name: 'response_seconds', type: 'number' },
	{ name: 'response_open_minutes', type: 'number' },
];

let sandbox: RunningSandbox;
let n8n: N8nServer;
let api: N8nPublicApi;
let userFolder: string;
let shop: Dealership;
let contactsTableId: string;

const pageUrl = (query = '') => `${n8n.url}/webhook/speed-to-lead${query}`;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, leads: 0, seed: 20261207 });
	userFolder = await prepareUserFolder('dashboard', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	const workflow = JSON.parse(
		readFileSync(join(examplesDir, 'speed-to-lead-dashboard.json'), 'utf8'),
	);
	for (const node of workflow.nodes) {
		if (node.name === TRIGGER) node.parameters.pollTimes = pollTimesEvery(5);
	}
	await importWorkflows(userFolder, writeWorkflowFiles(userFolder, [workflow]));
	({ n8n, api } = await startN8nWithApi({ userFolder, env: { GENERIC_TIMEZONE: ZONE } }));
	contactsTableId = await createTable(api, 'First contacts', FIRST_CONTACT_COLUMNS);
	const handOffsTableId = await createTable(api, 'Lead hand-offs', HANDOFF_COLUMNS);
	expect((await api.request('POST', `/workflows/${workflow.id}/activate`)).status).toBe(200);
	const status = await waitForTriggerStatus(userFolder, workflow.id);
	expect(status.map((s) => [s.status, s.errorMessage])).toEqual(
		status.map(() => ['activated', null]),
	);
	shop = new Dealership(sandbox, () => api, handOffsTableId);
	// The trigger's first poll notes where things stand; the leads come after it.
	await shop.nextPolls(1);
}, 240_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

/** The page as Chromium shows it: status, text, each advisor row's figures; its picture saved. */
async function openInChromium(url: string, picture: string) {
	const result = await runCommand(
		process.execPath,
		[join(repoRoot, 'scripts', 'e2e', 'dashboard-page.mjs'), '--url', url, '--out', picture],
		{ cwd: repoRoot, timeoutMs: 120_000, env: process.env },
	);
	if (result.code !== 0)
		throw new Error(`dashboard-page.mjs: ${result.code}\n${tail(result.stderr)}`);
	return JSON.parse(result.stdout.trim().split('\n').pop()!) as {
		status: number;
		text: string;
		rows: Array<Record<string, string>>;
	};
}

const shown = (row: Record<string, string>): AdvisorFigures => {
	const orNull = (value: string) => (value === '' ? null : Number(value));
	return {
		week: row.week,
		advisor: row.advisor,
		received: Number(row.received),
		median: orNull(row.median),
		p90: orNull(row.p90),
		within5: Number(row.within5),
		within15: Number(row.within15),
		passedOn: Number(row.passedOn),
		escalated: Number(row.escalated),
	};
};
const byKey = (a: AdvisorFigures, b: AdvisorFigures) =>
	`${a.week} ${a.advisor}`.localeCompare(`${b.week} ${b.advisor}`);

test('two weeks, 40 assigned leads: each first contact carries the chosen response time to the second; the page in Chromium shows the figures the scenario gives', async () => {
	const started = Date.now();
	const lastWeekStart = wednesdayAfter(shop.now(), ZONE);
	const thisWeekStart = lastWeekStart + 7 * 24 * 3_600_000;
	const waits: StartedWait[] = [];
	const handOffs: HandOffRow[] = [];
	for (const [plans, at, label] of [
		[LAST_WEEK, lastWeekStart, 'A'],
		[THIS_WEEK, thisWeekStart, 'B'],
	] as const) {
		const week = await playWeek(shop, [...plans], at, label);
		waits.push(...week.waits);
		handOffs.push(...week.handOffs);
	}
	const answered = waits.filter((w) => w.wait.after !== null);
	expect(answered).toHaveLength(36);

	// One row per (lead, advisor) reached, each with the wait's start and the chosen time.
	const rows = await firstContactRows(api, contactsTableId, answered.length);
	await shop.nextPolls(2);
	const final = await firstContactRows(api, contactsTableId, answered.length);
	expect(final).toHaveLength(answered.length);
	const expectedRows = answered.map((w) => ({
		lead_id: w.leadId,
		advisor: w.wait.advisor,
		waiting_since: new Date(w.startMs).toISOString(),
		response_seconds: w.wait.after,
		channel: 'chat_app',
	}));
	const gotRows = rows.map((r: any) => ({
		lead_id: r.lead_id,
		advisor: r.advisor,
		waiting_since: r.waiting_since,
		response_seconds: r.response_seconds,
		channel: r.channel,
	}));
	const order = (a: { lead_id: string; advisor: string }, b: typeof a) =>
		`${a.lead_id}${a.advisor}`.localeCompare(`${b.lead_id}${b.advisor}`);
	expect(gotRows.sort(order)).toEqual(expectedRows.sort(order));
	// The contact's time on the service's clock: the chosen second, and the 300 ms the test adds.
	for (const row of rows) {
		const ms = Date.parse(row.contacted_at) - Date.parse(row.waiting_since);
		expect(ms - row.response_seconds * 1000).toBeGreaterThanOrEqual(300);
		expect(ms - row.response_seconds * 1000).toBeLessThan(500);
	}

	// The page for this week (and the one before), in Chromium.
	const week = isoWeek(thisWeekStart, ZONE);
	const picture = PICTURE ? join(repoRoot, PICTURE) : join(userFolder, 'dashboard.png');
	const page = await openInChromium(pageUrl(`?week=${week}`), picture);
	expect(page.status).toBe(200);
	expect(statSync(picture).size).toBeGreaterThan(10_000);
	expect(page.text).toContain(`Week ${week}`);
	expect(page.text).toContain(`Times in ${ZONE}`);
	const expected = expectedFigures(waits, handOffs, ZONE);
	const weeks = [week, isoWeek(lastWeekStart, ZONE)];
	expect(weeks[1]).not.toBe(weeks[0]);
	expect(page.rows.map(shown).sort(byKey)).toEqual(
		expected.filter((f) => weeks.includes(f.week)).sort(byKey),
	);
	// Every advisor in both weeks; each settled wait counted once (an escalated lead its advisor
	// reached later too), the one still waiting in nobody's count.
	expect(page.rows).toHaveLength(8);
	const received = page.rows.reduce((sum, row) => sum + Number(row.received), 0);
	expect(waits).toHaveLength(40 + 7);
	expect(received).toBe(waits.length - 1);
	process.stdout.write(
		`\n[dashboard e2e] ${answered.length} first contacts, ${handOffs.length} hand-off rows, ` +
			`${page.rows.length} advisor rows on the page; ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
	);
}, 300_000);

test('a week without data answers a clear page; a malformed week a clear 400', async () => {
	const empty = await httpCall('GET', pageUrl('?week=2020-W10'), {
		headers: { accept: 'text/html' },
	});
	expect(empty.status).toBe(200);
	expect(String(empty.headers['content-type'])).toMatch(/^text\/html/);
	expect(empty.text).toContain('No first contacts or hand-offs in week 2020-W10.');
	expect(empty.text).toContain('No first contacts or hand-offs in week 2020-W09.');
	for (const bad of ['2026-W99', 'last-week', '<b>2026</b>']) {
		const res = await httpCall('GET', pageUrl(`?week=${encodeURIComponent(bad)}`));
		expect(res.status).toBe(400);
		expect(res.text).toContain('The week must be written like 2026-W48');
		expect(res.text).not.toContain('<b>2026');
	}
	// No week: this week on n8n's clock, a page all the same.
	const current = await httpCall('GET', pageUrl());
	expect(current.status).toBe(200);
	expect(current.text).toContain('<h1>Speed to lead</h1>');
}, 60_000);
