import { mkdirSync } from 'fs';
import { join } from 'path';

import {
	listExecutions,
	nodeOutput,
	waitForExecutions,
	waitForTriggerStatus,
} from '../../../harness/real-n8n/executions';
import { leadsOfAccount, patchLead } from '../../../harness/real-n8n/leadsMirror';
import {
	N8nPublicApi,
	startN8nWithApi,
	type N8nServer,
} from '../../../harness/real-n8n/n8n-server';
import { waitFor } from '../../../harness/real-n8n/processes';
import { prepareUserFolder } from '../../../harness/real-n8n/setup';
import { pollTimesEvery } from '../../../harness/queue/pathWorkflows';
import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { compareWithService, readSheet } from '../../../scripts/demo/sheet';
import { syncWorkflow } from '../../../scripts/demo/syncStep';
import { EXAMPLE_SANDBOX } from '../support/exampleRuns';

// examples/leads-mirror-to-file.json (the sheet `npm run demo` keeps) inside a real n8n 2.41.1,
// as shipped but for two things: its file path points into a folder of the test, which
// N8N_RESTRICT_FILE_ACCESS_TO lets n8n's file nodes reach, and Poll Times every 15 s. The
// activation poll fills the file (Include Existing Leads); after four changes at the service
// the next poll brings them; each time the file equals GET /leads, every cell.

const POLL_SECONDS = 15;

let sandbox: RunningSandbox;
let n8n: N8nServer;
let api: N8nPublicApi;
let sheetPath: string;
let userFolder: string;
let workflowId: string;
let fillId: string;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, ...EXAMPLE_SANDBOX });
	userFolder = await prepareUserFolder('mirror-file', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	const sheets = join(userFolder, 'sheets');
	mkdirSync(sheets);
	sheetPath = join(sheets, 'leads.csv');
	({ n8n, api } = await startN8nWithApi({
		userFolder,
		env: { N8N_RESTRICT_FILE_ACCESS_TO: sheets },
	}));
	const { name, nodes, connections, settings } = syncWorkflow(sheetPath);
	for (const node of nodes) {
		if (node.type.endsWith('.leadConversationsPollTrigger')) {
			node.parameters = { ...node.parameters, pollTimes: pollTimesEvery(POLL_SECONDS) };
		}
	}
	const created = await api.request('POST', '/workflows', { name, nodes, connections, settings });
	expect(created.status).toBe(200);
	workflowId = created.json.id;
}, 400_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

async function expectSheetEqualsService() {
	const comparison = compareWithService(readSheet(sheetPath), await leadsOfAccount(sandbox));
	process.stdout.write(
		`[mirror-file] ${comparison.rows} rows, ${comparison.leads} leads, ${comparison.differingCells.length} of ${comparison.cells} cells differ\n`,
	);
	expect(comparison).toMatchObject({
		differingCells: [],
		missing: [],
		extra: [],
		duplicated: [],
	});
	return comparison;
}

describe('keep a leads sheet in sync: the CSV file example in n8n 2.41.1', () => {
	it('activation fills the file with every lead, the sheet not there before', async () => {
		expect((await api.request('POST', `/workflows/${workflowId}/activate`)).status).toBe(200);
		expect((await waitForTriggerStatus(userFolder, workflowId))[0].status).toBe('activated');
		const [fill] = await waitForExecutions(api, workflowId, 1, 120_000);
		expect(fill.status).toBe('success');
		fillId = fill.id;
		const comparison = await expectSheetEqualsService();
		expect(comparison.rows).toBe(EXAMPLE_SANDBOX.leads);
	});

	it('a scored lead, an assigned one, a lost one and a new one: the next poll brings the four, the file still equals the service', async () => {
		const state = sandbox.control.state();
		const ours = state.leads.filter((lead) => lead.organization_id === 'org_alpha');
		const scored = ours.find((lead) => lead.status === 'new')!;
		const toAssign = ours.find((lead) => lead.status === 'qualified' && !lead.assigned_to)!;
		const lost = ours.find((lead) => lead.status === 'in_conversation')!;
		sandbox.control.qualifyLead(scored.id, 82);
		await patchLead(sandbox, toAssign.id, { status: 'assigned', assigned_to: 'user_carla_ruiz' });
		await patchLead(sandbox, lost.id, { status: 'lost' });
		const arrived = sandbox.control.createChannelLead({
			name: 'Valentina Ríos',
			channel: 'chat_app',
		});

		// A poll may fall between two of the changes: wait until the polls after the fill brought all.
		const changed = [scored.id, toAssign.id, lost.id, arrived.id].sort();
		const after = await waitFor(
			'the polls after the fill to bring the four changed leads',
			async () => {
				const executions = (await listExecutions(api, workflowId, true)).filter(
					(execution) => execution.id !== fillId,
				);
				const ids = executions.flatMap((execution) =>
					nodeOutput(execution, 'Lead created or changed').map((item) => String(item.json.id)),
				);
				const done = executions.every((e) => e.status !== 'running' && e.status !== 'new');
				return done && ids.length >= changed.length ? { executions, ids } : undefined;
			},
			{ timeoutMs: (POLL_SECONDS + 60) * 1000, intervalMs: 500 },
		);
		expect(after.executions.every((execution) => execution.status === 'success')).toBe(true);
		expect(after.ids.sort()).toEqual(changed);
		const comparison = await expectSheetEqualsService();
		expect(comparison.rows).toBe(EXAMPLE_SANDBOX.leads + 1);
	}, 240_000);
});
