import { existsSync } from 'fs';
import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import {
	E2E_OWNER,
	N8nSession,
	startN8n,
	type N8nServer,
} from '../../../harness/real-n8n/n8n-server';
import { repoRoot } from '../../../harness/real-n8n/paths';
import { runCommand, tail } from '../../../harness/real-n8n/processes';
import { prepareUserFolder } from '../../../harness/real-n8n/setup';
import {
	EXAMPLE_FILES,
	assignedLeadsScenario,
	requestsOf,
	runExamplesInEditor,
	stalledConversations,
	writesOf,
	type ExampleRun,
} from '../support/exampleTestRuns';

// The points a review of the nodes in the real editor found, seen again in n8n 2.41.1's editor
// through headless Chromium (scripts/e2e/editor-review.mjs): the package installed as a community
// package, its credential pointing at the sandbox. The script opens each node the way a person
// does, types into Agent → Update's Handoff Triggers, runs the step, opens Send Message's
// conversation list and the Output dropdowns; it prints what it saw, which this spec checks.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** An option of a dropdown as the editor shows it (scripts/e2e/review-page.mjs measureOption). */
interface MeasuredOption {
	shown: string;
	description: string;
	/** The parts whose text is longer than their box: a cut description. */
	cut: string[];
}

interface Seen {
	canvas: Record<string, string>;
	trigger: { text: string; credentialLabels: string[]; currentLeadFlat: MeasuredOption };
	poll: { text: string };
	sync: {
		text: string;
		costNotice?: { text: string; lines: number };
		flat: MeasuredOption;
	};
	pollType: { displayName?: string; defaultName?: string };
	assign: { text: string };
	getMany: { text: string };
	verify: { text: string };
	sendMessage: { rows: Array<{ name: string; value: string }>; shownRows: string[] };
	updateAgent: {
		rows: number;
		outcome: 'error' | 'output';
		text: string;
		parameters?: Record<string, any>;
	};
	screenshots: Record<string, string>;
}

let sandbox: RunningSandbox;
let server: N8nServer;
let userFolder: string;
let seen: Seen;

beforeAll(async () => {
	if (!existsSync(CHROMIUM)) {
		throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
	}
	sandbox = await startSandbox({ port: 0, seed: 1717 });
	userFolder = await prepareUserFolder('editor', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	// A first start migrates a fresh database: give a busy machine time.
	server = await startN8n({ userFolder, readyTimeoutMs: 240_000 });
	await N8nSession.signIn(server);

	const result = await runCommand(
		process.execPath,
		[
			join(repoRoot, 'scripts', 'e2e', 'editor-review.mjs'),
			...['--url', server.url, '--out-dir', join(userFolder, 'pictures')],
			...['--email', E2E_OWNER.email, '--password', E2E_OWNER.password],
		],
		{ cwd: repoRoot, timeoutMs: 900_000, env: process.env },
	);
	if (result.code !== 0) {
		throw new Error(`editor-review failed:\n${tail(result.stdout)}\n${tail(result.stderr)}`);
	}
	seen = JSON.parse(result.stdout.trim().split('\n').pop()!);
}, 1_200_000);

// Execute workflow on every example, with its pinned samples and with none, in the same editor.
// Before: two leads are assigned, one 16 minutes before (on the service's clock) and one seconds
// before; the open conversations quiet for 2+ days are noted (the nudge's real condition).
let runs: ExampleRun[];
let scenario: { waited: string; fresh: string; stalled: string[] };
beforeAll(async () => {
	scenario = { ...(await assignedLeadsScenario(sandbox)), stalled: stalledConversations(sandbox) };
	runs = await runExamplesInEditor(server, join(userFolder, 'pictures'));
}, 900_000);

afterAll(async () => {
	await server?.stop();
	await sandbox?.close();
});

describe('Execute workflow on each example changes nothing in the service without a real event', () => {
	const runOf = (file: string, pinned: boolean, attempt = 1) =>
		runs.find((run) => run.file === file && run.pinned === pinned && run.attempt === attempt)!;

	it('tries every example, pinned (twice) where it has samples and unpinned', () => {
		for (const file of EXAMPLE_FILES) expect(runOf(file, false)).toBeDefined();
		expect(runs.filter((run) => run.pinned).map((run) => run.file)).toEqual(
			expect.arrayContaining(['reroute-uncontacted-leads.json', 'qualified-lead-round-robin.json']),
		);
	});

	it('sends no write to the service, except follow-ups to conversations really quiet for 2+ days', () => {
		for (const run of runs) {
			const writes = writesOf(requestsOf(sandbox, run));
			const allowed =
				run.file === 'stalled-conversation-nudge.json' && !run.pinned
					? scenario.stalled.map((id) => `POST /v1/conversations/${id}/messages`)
					: [];
			const unexpected = writes.filter((write) => !allowed.includes(write));
			expect({ file: run.file, pinned: run.pinned, unexpected }).toEqual({
				file: run.file,
				pinned: run.pinned,
				unexpected: [],
			});
		}
		// No test subscription left behind by a webhook trigger.
		expect(sandbox.control.webhooks()).toEqual([]);
	});

	it('re-routing, pinned: both paths end green, the second try too', () => {
		for (const attempt of [1, 2]) {
			const run = runOf('reroute-uncontacted-leads.json', true, attempt);
			expect({ attempt, status: run.status, error: run.error }).toEqual({
				attempt,
				status: 'success',
				error: undefined,
			});
			expect(run.ran).toEqual(
				expect.arrayContaining(['Log the hand-off', 'Log the escalation', 'Tell the lead']),
			);
		}
	});

	it('re-routing, unpinned: the trigger gives the lead that waited, not the one assigned seconds ago', () => {
		const run = runOf('reroute-uncontacted-leads.json', false);
		const given = run.outputs?.['Lead waited 15 minutes'] ?? [];
		// Newest ended wait first; the seed's leads nobody wrote to for months may follow.
		expect(given[0]).toBe(scenario.waited);
		expect(given).not.toContain(scenario.fresh);
		for (const id of given) {
			expect(sandbox.control.state().leads.find((lead) => lead.id === id)?.status).toBe('assigned');
		}
		// No Data Table in this n8n: the run stops at Roster, before anything would be written.
		expect(run.ran).not.toContain('Pass on to another advisor');
	});

	it('ends every unpinned try in a clear, expected place', () => {
		const ends = Object.fromEntries(
			runs.filter((run) => !run.pinned).map((run) => [run.file, run.status]),
		);
		// A chat trigger offers Open chat: only a message starts a run.
		expect(ends['ask-about-your-leads.json']).toBe('no Execute workflow button');
		// The webhook trigger on plain http: refused with its own explanation, nothing subscribed.
		for (const file of [
			'qualified-lead-round-robin.json',
			'qualified-and-assigned-to-data-table.json',
		]) {
			const run = runOf(file, false);
			expect({ file, status: run.status }).toEqual({ file, status: 'refused' });
			expect(run.error).toContain('https://');
		}
		// n8n's Webhook node waits for a call; stopped, it ran nothing.
		expect(runOf('verified-webhook-events.json', false)).toMatchObject({ stopped: true, ran: [] });
	});

	it('round robin, pinned: the first try ends green along the whole path', () => {
		const run = runOf('qualified-lead-round-robin.json', true);
		expect({ status: run.status, error: run.error }).toEqual({
			status: 'success',
			error: undefined,
		});
		expect(run.ran).toEqual(expect.arrayContaining(['Assign the advisor', 'Tell the lead']));
	});
});

describe('the nodes in the real editor, after the review', () => {
	it("labels the webhook trigger's two credential boxes apart", () => {
		expect(seen.trigger.credentialLabels).toEqual([
			'API Credential',
			'Signing Secret (for Manual Subscription)',
		]);
		// The Manual notice points at the box by its label.
		expect(seen.trigger.text).toContain('Signing Secret box at the top');
	});

	it('runs Agent → Update with a blank Handoff Triggers row, which the editor stores as text', () => {
		// Two rows on screen, the second left blank; no row stored as [] (what failed before).
		expect(seen.updateAgent.rows).toBe(2);
		const stored = seen.updateAgent.parameters?.updateFields?.handoffTriggers as unknown[];
		expect(stored).toContain('price negotiation');
		expect(stored.filter((row) => Array.isArray(row))).toEqual([]);
		expect(seen.updateAgent.text).not.toContain('must be text');
		expect(seen.updateAgent.outcome).toBe('output');
		const agentId = seen.updateAgent.parameters?.agent?.value;
		const agent = sandbox.control.state().agents.find((a) => a.id === agentId);
		expect(agent?.configuration.handoff_triggers).toEqual(['price negotiation']);
	});

	it("lists in Send Message's conversation list no conversation that cannot take a message", () => {
		const { conversations, leads } = sandbox.control.state();
		expect(seen.sendMessage.rows.length).toBeGreaterThan(0);
		for (const row of seen.sendMessage.rows) {
			const conversation = conversations.find((c) => c.id === row.value)!;
			expect({ id: row.value, status: conversation.status }).toEqual({
				id: row.value,
				status: 'open',
			});
			expect(conversation.channel).not.toBe('phone');
			// Readable at a glance: the lead's name first, the last message's date and time last.
			const lead = leads.find((l) => l.id === conversation.lead_id)!;
			expect(row.name.startsWith(`${lead.name} · `)).toBe(true);
			expect(row.name).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
		}
		expect(seen.sendMessage.shownRows.join('\n')).not.toMatch(/Closed|Transferred|Phone/);
	});

	it("shows the polling trigger's event as its subtitle, in words", () => {
		const poll = seen.canvas['Qualified leads'];
		expect(poll).toContain('Lead Reached a Status');
		expect(poll).not.toContain('leadStatus');
		expect(seen.canvas['Lead Conversations Polling Trigger']).toContain('New or Updated Lead');
		expect(seen.canvas['Send a message']).toContain('Send Message: Conversation');
		expect(seen.canvas['Get many leads']).toContain('Get Many: Lead');
	});

	it('names purchase_30_days "Purchase Within 30 Days" in all three nodes, and api "API"', () => {
		for (const text of [seen.trigger.text, seen.poll.text, seen.getMany.text]) {
			expect(text).toContain('Purchase Within 30 Days');
			expect(text).not.toMatch(/Purchase 30 Days/);
		}
		for (const text of [seen.trigger.text, seen.poll.text]) {
			expect(text.split('\n').map((line) => line.trim())).toContain('API');
			expect(text).not.toMatch(/^\s*Api\s*$/m);
		}
	});

	it('shows the other fixed labels: Add Option, Max Event Age, Score At Least', () => {
		expect(seen.verify.text).toContain('Add Option');
		expect(seen.verify.text).not.toContain('Add option');
		expect(seen.trigger.text).toContain('Max Event Age');
		expect(seen.getMany.text).toContain('Score At Least');
	});

	it('shows the webhook trigger\'s events as its subtitle, in words, and no idle "Listening"', () => {
		const trigger = seen.canvas['Lead Conversations Trigger'];
		expect(trigger).toContain('Lead Qualified');
		expect(trigger).not.toContain('lead.qualified');
		expect(seen.trigger.text).toContain('Receive a test event from the lead service');
		expect(seen.trigger.text).not.toContain('Listening for');
	});

	it("shows New or Updated Lead's cost as one short sentence, in words", () => {
		const notice = seen.sync.costNotice!;
		expect(notice.text).toBe(
			"Each poll reads all your leads, one request per 100, and leaves half of the key's 1,000 requests a minute to other work: a large account is read over several polls.",
		);
		// At most three lines in the panel (the table it replaced took more than ten).
		expect(notice.lines).toBeGreaterThan(0);
		expect(notice.lines).toBeLessThanOrEqual(3);
		expect(seen.sync.text).not.toMatch(/⌈|Share of that limit/);
	});

	it("shows the Output options' descriptions whole in their dropdowns", () => {
		expect(seen.trigger.currentLeadFlat).toEqual({
			shown: expect.stringContaining('Current Lead, Flat'),
			description: 'The lead as it is now, in spreadsheet columns',
			cut: [],
		});
		expect(seen.sync.flat).toEqual({
			shown: expect.stringContaining('Flat'),
			description: 'Spreadsheet columns in a fixed order, blank when missing',
			cut: [],
		});
	});

	it('calls the polling trigger by one name: "Polling Trigger"', () => {
		expect(seen.pollType).toEqual({
			displayName: 'Lead Conversations Polling Trigger',
			defaultName: 'Lead Conversations Polling Trigger',
		});
		const texts = [seen.trigger, seen.poll, seen.sync, seen.getMany, seen.verify, seen.assign];
		for (const { text } of texts) expect(text).not.toMatch(/Poll Trigger/);
	});

	it("shows the Polling Trigger's own help before a test run, not n8n's generic mock event", () => {
		expect(seen.poll.text).toContain('Fetch what a check of the lead service finds now');
		expect(seen.poll.text).toContain('Assigned Lead Not Contacted');
		expect(seen.poll.text).not.toMatch(/mock event/i);
	});

	it('takes a picture of each node', () => {
		for (const file of [
			'node-action.png',
			'node-assign.png',
			'node-trigger.png',
			'node-poll-trigger.png',
			'node-verify.png',
		]) {
			expect(existsSync(seen.screenshots[file])).toBe(true);
		}
	});
});
