import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { FLAT_LEAD_COLUMNS } from '../../../nodes/shared/flatLead';
import {
	nodeOutput,
	waitForExecutions,
	waitForTriggerStatus,
} from '../../../harness/real-n8n/executions';
import {
	N8nPublicApi,
	type N8nServer,
	startN8nWithApi,
} from '../../../harness/real-n8n/n8n-server';
import { examplesDir, repoRoot } from '../../../harness/real-n8n/paths';
import { runCommand, waitFor } from '../../../harness/real-n8n/processes';
import { importWorkflows, prepareUserFolder } from '../../../harness/real-n8n/setup';
import { makeSelfSignedCertificate } from '../../../harness/real-n8n/tls';
import { createAdvisorsRoster } from '../../support/advisorsRoster';
import {
	EXAMPLE_SANDBOX,
	example,
	execute as executeIn,
	inDemoEngine,
	output,
	storedFile as storedFileIn,
	type RunJson,
} from '../support/exampleRuns';

// The example workflows of examples/ inside real n8n: the scheduled ones run with `n8n execute`
// (through their "Run now" trigger), the round robin one activated in n8n serving HTTPS.
// The same workflows also run through the in-process engine `npm run demo` uses, against a
// sandbox with the same seed, to prove the demo tells what real n8n would do.

const LEADS = EXAMPLE_SANDBOX.leads;
const ROSTER = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz'];

let sandbox: RunningSandbox;
let userFolder: string;

const execute = (workflowId: string): Promise<RunJson> => executeIn(userFolder, workflowId);
const storedFile = (binary: { id?: string; data: string }) => storedFileIn(userFolder, binary);

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, ...EXAMPLE_SANDBOX });
	userFolder = await prepareUserFolder('examples', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	await importWorkflows(
		userFolder,
		[
			'leads-to-spreadsheet.json',
			'qualified-lead-round-robin.json',
			'stalled-conversation-nudge.json',
		].map((file) => join(examplesDir, file)),
	);
}, 180_000);

afterAll(async () => {
	await sandbox?.close();
});

describe('example: new leads to a spreadsheet file', () => {
	const ID = example('leads-to-spreadsheet.json').id;
	let firstCsv: Buffer;

	it('the first run puts every lead into one CSV file, as n8n’s Convert to File writes it', async () => {
		const run = await execute(ID);
		const leads = output(run, 'New leads since last run').map((item) => item.json);
		expect(leads).toHaveLength(LEADS);
		expect(Object.keys(leads[0])).toEqual([...FLAT_LEAD_COLUMNS]);

		const [file] = output(run, 'Spreadsheet file');
		expect(file.binary.data).toMatchObject({ mimeType: 'text/csv', fileExtension: 'csv' });
		expect(file.binary.data.fileName).toMatch(/^new-leads-\d{4}-\d{2}-\d{2}-\d{4}\.csv$/);
		firstCsv = storedFile(file.binary.data);
		expect(firstCsv.toString('utf8').split('\n')).toHaveLength(LEADS + 1);
	});

	it('the next runs bring only the leads created since, then nothing', async () => {
		const arrived = [
			sandbox.control.createChannelLead({ name: 'Valentina Ríos', channel: 'chat_app' }),
			sandbox.control.createChannelLead({ name: 'Tomás Herrera', channel: 'marketplace' }),
		];
		const second = await execute(ID);
		const leads = output(second, 'New leads since last run').map((item) => item.json);
		expect(leads.map((lead) => lead.id).sort()).toEqual(arrived.map((lead) => lead.id).sort());
		expect(
			storedFile(output(second, 'Spreadsheet file')[0].binary.data).toString('utf8'),
		).toContain('Valentina Ríos');

		const third = await execute(ID);
		expect(output(third, 'New leads since last run')).toEqual([]);
		expect(third.data.resultData.runData['Spreadsheet file']).toBeUndefined();
	});

	it('the demo engine writes the same first file', async () => {
		const result = await inDemoEngine('leads-to-spreadsheet.json', 'Every hour');
		const [file] = result.output('Spreadsheet file');
		expect(Buffer.from(file.binary!.data.data, 'base64').equals(firstCsv)).toBe(true);
	});
});

describe('example: nudge stalled conversations', () => {
	const ID = example('stalled-conversation-nudge.json').id;
	const touchRecent = (service: RunningSandbox) => {
		const open = service.control
			.state()
			.conversations.filter((c) => c.organization_id === 'org_alpha' && c.status === 'open');
		for (const conversation of open.slice(0, 2))
			service.control.reachMilestone(conversation.id, 'budget_identified');
	};

	it('only open conversations quiet for more than 2 days get the follow-up, in real n8n and in the demo', async () => {
		touchRecent(sandbox);
		const twoDaysAgo = Date.now() - 2 * 24 * 3600 * 1000;
		const open = sandbox.control
			.state()
			.conversations.filter((c) => c.organization_id === 'org_alpha' && c.status === 'open');
		const stalled = open.filter((c) => Date.parse(c.last_message_at) < twoDaysAgo).map((c) => c.id);
		expect(stalled.length).toBeGreaterThan(0);
		expect(stalled.length).toBeLessThan(open.length);

		const run = await execute(ID);
		const sent = output(run, 'Send follow-up').map((item) => item.json);
		expect(sent.map((message) => message.conversation_id).sort()).toEqual([...stalled].sort());
		for (const message of sent) {
			expect(message).toMatchObject({ direction: 'outbound', sent_by: 'human' });
			expect(message.content).toMatch(/^Hi! Just checking in/);
		}

		const demo = await inDemoEngine(
			'stalled-conversation-nudge.json',
			'Every day at 9',
			touchRecent,
		);
		expect(
			demo
				.output('Send follow-up')
				.map((item) => item.json.conversation_id)
				.sort(),
		).toEqual([...stalled].sort());
	});
});

describe('example: assign qualified leads by round robin (activated in n8n over HTTPS)', () => {
	const ID = example('qualified-lead-round-robin.json').id;
	let n8n: N8nServer;
	let api: N8nPublicApi;

	beforeAll(async () => {
		const certificate = await makeSelfSignedCertificate(userFolder);
		({ n8n, api } = await startN8nWithApi({ userFolder, certificate }));
		await createAdvisorsRoster(
			api,
			ROSTER.map((user_id) => ({ user_id })),
		);
	}, 180_000);

	afterAll(async () => {
		await n8n?.stop();
	});

	it('each qualified lead scoring 70+ goes to the next advisor and is told one will call', async () => {
		expect((await api.request('POST', `/workflows/${ID}/activate`)).status).toBe(200);
		expect((await waitForTriggerStatus(userFolder, ID))[0].status).toBe('activated');
		expect(sandbox.control.webhooks()).toHaveLength(1);

		const state = sandbox.control.state();
		const openByLead = new Map(
			state.conversations.filter((c) => c.status === 'open').map((c) => [c.lead_id, c.id]),
		);
		const leads = state.leads.filter(
			(l) =>
				l.organization_id === 'org_alpha' &&
				['new', 'in_conversation'].includes(l.status) &&
				openByLead.has(l.id),
		);
		const scores = [88, 62, 74, 91, 79];
		// Below 70 no run; a lead that already has an advisor keeps them and uses no turn; the
		// others take the roster's turns in order.
		let turn = 0;
		const expectedAdvisor = scores.map((score, index) => {
			if (score < 70) return null;
			if (leads[index].assigned_to !== null) return { kept: leads[index].assigned_to };
			return ROSTER[turn++ % ROSTER.length];
		});
		expect(turn).toBeGreaterThan(1);
		let runs = 0;
		for (const [index, score] of scores.entries()) {
			sandbox.control.qualifyLead(leads[index].id, score);
			await sandbox.control.whenDeliveriesSettled();
			if (expectedAdvisor[index] === null) continue;
			runs++;
			const executions = await waitForExecutions(api, ID, runs);
			expect(executions.every((e) => e.status === 'success')).toBe(true);
		}

		const after = sandbox.control.state();
		for (const [index, advisor] of expectedAdvisor.entries()) {
			const lead = after.leads.find((l) => l.id === leads[index].id)!;
			// The workflow writes in the lead's first open conversation the service lists.
			const told = after.conversations
				.filter((c) => c.lead_id === lead.id)
				.some((c) =>
					c.messages.some(
						(m) => m.sent_by === 'human' && m.content === 'An advisor will contact you shortly',
					),
				);
			if (advisor === null) {
				expect(lead).toMatchObject({ status: 'qualified', assigned_to: leads[index].assigned_to });
				expect(told).toBe(false);
			} else if (typeof advisor === 'object') {
				expect(lead).toMatchObject({ status: 'qualified', assigned_to: advisor.kept });
				expect(told).toBe(false);
			} else {
				expect(lead).toMatchObject({ status: 'assigned', assigned_to: advisor });
				expect(told).toBe(true);
			}
		}
		const executions = await waitForExecutions(api, ID, runs);
		const told = executions.filter((e) => nodeOutput(e, 'Tell the lead').length > 0);
		expect(told).toHaveLength(turn);
		expect(nodeOutput(told[0], 'Tell the lead')[0].json.content).toBe(
			'An advisor will contact you shortly',
		);

		expect((await api.request('POST', `/workflows/${ID}/deactivate`)).status).toBe(200);
		await waitFor('the subscription to be deleted', () =>
			sandbox.control.webhooks().length === 0 ? true : undefined,
		);
	});
});

test('`npm run demo` keeps a sheet in sync first, then assigns, passes on a lead left waiting and nudges, and tells what happened, in well under a minute', async () => {
	const result = await runCommand(
		join(repoRoot, 'node_modules', '.bin', 'ts-node'),
		['--transpile-only', 'scripts/demo.ts'],
		{ cwd: repoRoot, timeoutMs: 60_000 },
	);
	expect(result.code).toBe(0);
	const steps = [
		'1. Keep a spreadsheet in sync',
		'2. Assign qualified leads',
		'2b. A lead left waiting is passed on',
		'3. Nudge stalled',
	];
	const at = steps.map((step) => result.stdout.indexOf(step));
	expect(at.every((index) => index >= 0)).toBe(true);
	expect([...at].sort((a, b) => a - b)).toEqual(at);
	expect(result.stdout).toMatch(
		/First poll \(Include Existing Leads is on\): 24 leads → 24 rows\./,
	);
	expect(result.stdout).toMatch(
		/Next poll: 4 leads changed → 3 rows updated, 1 added, 21 untouched:/,
	);
	expect(result.stdout).toContain(
		'The sheet against GET /leads: 25 rows for 25 leads, 0 of 350 cells differ.',
	);
	// The sheet the demo left: one row per lead, the header the Flat columns.
	const sheet = readFileSync(join(repoRoot, 'demo-output', 'leads.csv'), 'utf8')
		.replace(/^\uFEFF/, '')
		.trim()
		.split('\n');
	expect(sheet[0]).toBe(FLAT_LEAD_COLUMNS.join(','));
	expect(sheet).toHaveLength(26);
	expect(result.stdout).toMatch(/qualifies with score 88 → assigned to user_ana_lopez;/);
	expect(result.stdout).toContain('qualifies with score 62: no run, the trigger starts at 70.');
	// Step 2 gave João González to user_bruno_diaz, who did not write within 15 minutes.
	expect(result.stdout).toContain('João González waited 15 open minutes for user_bruno_diaz');
	// A lead assigned after closing: nothing at night, passed on once the morning's wait ended.
	expect(result.stdout).toContain('so nothing is passed on at night.');
	expect(result.stdout).toMatch(/Nora Vidal waited 15 open minutes for user_bruno_diaz/);
	expect(result.stdout).toMatch(/→ passed on to user_\w+, never back to user_bruno_diaz;/);
	expect(result.stdout).toContain('Sofía Álvarez: user_ana_lopez wrote, so nothing to do.');
	expect(result.stdout).toMatch(/The \d+ quiet for longer got a follow-up:/);
	expect(result.durationMs).toBeLessThan(60_000);
}, 90_000);

test('every example in examples/ is accounted for by the end-to-end suite', () => {
	const files = readdirSync(examplesDir)
		.filter((file) => file.endsWith('.json'))
		.sort();
	expect(files).toEqual([
		// Run by agentTool.e2e.ts with a scripted chat model.
		'ask-about-your-leads.json',
		// Run by sync.e2e.ts.
		'leads-mirror-to-data-table.json',
		// Run by mirror-file.e2e.ts; `npm run demo` runs it too.
		'leads-mirror-to-file.json',
		// Imported by sync.e2e.ts, without a credential.
		'leads-mirror-to-google-sheets.json',
		'leads-to-spreadsheet.json',
		// Imported by sync.e2e.ts; the webhook path's Output is proven by the engine tests.
		'qualified-and-assigned-to-data-table.json',
		'qualified-lead-round-robin.json',
		// Run by speed-to-lead.e2e.ts; `npm run demo` runs it too.
		'reroute-uncontacted-leads.json',
		// Run by speed-to-lead-dashboard.e2e.ts, its page opened in Chromium.
		'speed-to-lead-dashboard.json',
		'stalled-conversation-nudge.json',
		// Run by verify.e2e.ts.
		'verified-webhook-events.json',
	]);
	const ids = files.map((file) => example(file).id);
	for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{1,21}$/);
	expect(new Set(ids).size).toBe(ids.length);
});
