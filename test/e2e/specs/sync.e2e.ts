import {
	listExecutions,
	nodeOutput,
	type ExecutionSummary,
} from '../../../harness/real-n8n/executions';
import {
	INSTANT_EXAMPLE,
	MIRROR_EXAMPLE,
	changeOrder,
	createLeadsTable,
	leadsOfAccount,
	mirrorDifferences,
	mirrorWorkflow,
	randomChange,
	readTableRows,
} from '../../../harness/real-n8n/leadsMirror';
import {
	N8nPublicApi,
	startN8n,
	startN8nWithApi,
	type N8nServer,
} from '../../../harness/real-n8n/n8n-server';
import { waitFor } from '../../../harness/real-n8n/processes';
import { queryN8nDatabase } from '../../../harness/real-n8n/sqlite';
import { pollTimesEvery } from '../../../harness/queue/pathWorkflows';
import { seededRandom } from '../../../harness/support/random';
import { startSandbox, type RunningSandbox } from '../../../sandbox';

// The leads mirror example (polling trigger, New or Updated Lead, Output Flat → n8n's Data Table
// node, Upsert on lead_id) inside a real n8n 2.41.1: filled from 300 leads, then 200 random
// changes, some while a poll is reading pages, then more across a restart. After each round the
// table must equal GET /leads field by field and every change must have come as one item.
// Poll Times: every 15 s (four fixed seconds a minute), so the suite takes minutes, not hours.

const LEADS = 300;
const CHANGES = 200;
const AFTER_RESTART = 60;
const POLL_SECONDS = 15;
const TRIGGER = 'Lead created or changed';
/** Each page of GET /leads answers this late, so a pass reads for seconds and changes fall inside. */
const PAGE_DELAY_MS = 700;

let sandbox: RunningSandbox;
let userFolder: string;
let n8n: N8nServer;
let api: N8nPublicApi;
let apiKey: string;
let tableId: string;
let workflowId: string;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** First pages of GET /leads so far: one per poll pass started. */
const passesStarted = () =>
	sandbox.control.requests().filter((r) => r.path === '/v1/leads' && !r.query.cursor).length;

/** Executions of the mirror not finished yet, from n8n's database (the public API lists finished ones). */
async function unfinished(): Promise<number> {
	const rows = await queryN8nDatabase<{ count: number }>(
		userFolder,
		"SELECT COUNT(*) AS count FROM execution_entity WHERE workflowId = ? AND status IN ('new', 'running', 'waiting')",
		[workflowId],
	);
	return Number(rows[0]?.count ?? 0);
}

/** Waits until every execution has finished (upserts into SQLite are slow on a loaded machine). */
async function allFinished(): Promise<ExecutionSummary[]> {
	await waitFor(
		'the executions to finish',
		async () => ((await unfinished()) === 0 ? true : undefined),
		{
			timeoutMs: 600_000,
			intervalMs: 1_000,
		},
	);
	return (await listExecutions(api, workflowId, true)).reverse();
}

/** Waits for `polls` more passes to start and end, and for every execution to finish. */
async function afterPolls(polls: number): Promise<ExecutionSummary[]> {
	const target = passesStarted() + polls;
	await waitFor('the next polls', async () => (passesStarted() >= target ? true : undefined), {
		timeoutMs: (polls + 2) * POLL_SECONDS * 1000 + 120_000,
		intervalMs: 500,
	});
	// The last pass reads its pages, then its execution upserts.
	await sleep(4 * PAGE_DELAY_MS + 3_000);
	return await allFinished();
}

async function expectTableEqualsLeads(label: string) {
	const differences = mirrorDifferences(
		await readTableRows(api, tableId),
		await leadsOfAccount(sandbox),
	);
	process.stdout.write(
		`[sync] ${label}: differing cells ${differences.differingCells.length}, missing ${differences.missing.length}, extra ${differences.extra.length}, duplicated ${differences.duplicated.length}\n`,
	);
	expect(differences).toEqual({ differingCells: [], missing: [], extra: [], duplicated: [] });
}

/** The trigger's items of executions after the first `skip`, as "id updated_at". */
function itemsAfter(executions: ExecutionSummary[], skip: number): string[] {
	return executions
		.slice(skip)
		.flatMap((execution) => nodeOutput(execution, TRIGGER))
		.map((item) => `${item.json.id} ${item.json.updated_at}`);
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, leads: LEADS, seed: 2020 });
	const { prepareUserFolder } = await import('../../../harness/real-n8n/setup');
	userFolder = await prepareUserFolder('sync', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	({ n8n, apiKey, api } = await startN8nWithApi({ userFolder, readyTimeoutMs: 180_000 }));
	tableId = await createLeadsTable(api);
}, 400_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

describe('keep a leads table in sync: the mirror example in n8n 2.41.1 with its Data Table', () => {
	let executionsSoFar = 0;
	const changed = new Set<string>();

	it('the examples import cleanly: the mirror, the Google Sheets one (no credential chosen) and the instant path', async () => {
		const create = async (workflow: ReturnType<typeof mirrorWorkflow>) => {
			const { name, nodes, connections, settings } = workflow;
			const res = await api.request('POST', '/workflows', { name, nodes, connections, settings });
			expect(res.status).toBe(200);
			return res.json;
		};
		const sheets = await create(mirrorWorkflow('leads-mirror-to-google-sheets.json'));
		const sheetNode = sheets.nodes.find((node: any) => node.type === 'n8n-nodes-base.googleSheets');
		expect(sheetNode.parameters).toMatchObject({
			operation: 'appendOrUpdate',
			columns: { matchingColumns: ['id'] },
		});
		expect(sheetNode.credentials).toBeUndefined();
		await create(mirrorWorkflow(INSTANT_EXAMPLE));

		const mirror = await create(
			mirrorWorkflow(MIRROR_EXAMPLE, (parameters) => {
				parameters.pollTimes = pollTimesEvery(POLL_SECONDS);
				parameters.options = { ...(parameters.options as object), includeExistingLeads: true };
			}),
		);
		workflowId = mirror.id;
	});

	it('activation fills the empty table from the 300 leads, each once', async () => {
		expect((await api.request('POST', `/workflows/${workflowId}/activate`)).status).toBe(200);
		const executions = await afterPolls(1);
		const items = itemsAfter(executions, 0);
		expect(items).toHaveLength(LEADS);
		expect(new Set(items).size).toBe(LEADS);
		expect(executions.every((e) => e.status === 'success')).toBe(true);
		await expectTableEqualsLeads('after the fill');
		executionsSoFar = executions.length;
	}, 900_000);

	it('200 random changes, some while a poll reads its pages: the table equals GET /leads, each change one item', async () => {
		const random = seededRandom(20);
		const order = changeOrder(await leadsOfAccount(sandbox), 20);
		sandbox.control.injectFaults({
			kind: 'delay',
			delayMs: PAGE_DELAY_MS,
			probability: 1,
			method: 'GET',
			pathPrefix: '/v1/leads',
		});
		const expected = new Map<string, string>();
		const kinds = new Map<string, number>();
		let duringPass = 0;
		for (let i = 0; i < CHANGES; i++) {
			const id = order[i];
			const { kind, lead } = await randomChange(sandbox, id, random);
			changed.add(lead.id);
			expected.set(lead.id, `${lead.id} ${lead.updated_at}`);
			kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
			// A pass is reading when its latest page request is younger than a page's answer time.
			const last = sandbox.control
				.requests()
				.filter((r) => r.path === '/v1/leads')
				.at(-1);
			if (last && Date.now() - last.at < PAGE_DELAY_MS) duringPass++;
			await sleep(100);
		}
		const executions = await afterPolls(2);
		sandbox.control.clearFaults();
		process.stdout.write(
			`[sync] ${CHANGES} changes (${JSON.stringify(Object.fromEntries(kinds))}), ${duringPass} made while a poll was reading pages\n`,
		);
		expect(duringPass).toBeGreaterThan(0);
		expect(executions.every((e) => e.status === 'success')).toBe(true);

		const items = itemsAfter(executions, executionsSoFar);
		expect(items.length).toBe(new Set(items).size);
		expect(items.sort()).toEqual([...expected.values()].sort());
		await expectTableEqualsLeads('after 200 changes');
		executionsSoFar = executions.length;

		// The mirror's lag: from the change (its updated_at) to the row's write (the table's updatedAt).
		const rows = await readTableRows(api, tableId);
		const lags = rows
			.filter((row) => expected.has(row.lead_id))
			.map((row) => Date.parse(row.updatedAt) - Date.parse(row.updated_at))
			.sort((a, b) => a - b);
		process.stdout.write(
			`[sync] lag from a change to its row, Poll Times every ${POLL_SECONDS} s: median ${(lags[Math.floor(lags.length / 2)] / 1000).toFixed(1)} s, max ${(lags[lags.length - 1] / 1000).toFixed(1)} s over ${lags.length} rows\n`,
		);
		expect(lags).toHaveLength(expected.size);
	}, 1_200_000);

	it('changes made while n8n is down reach the table once after the restart', async () => {
		const random = seededRandom(21);
		const order = changeOrder(await leadsOfAccount(sandbox), 21).filter((id) => !changed.has(id));
		// Between polls: one pass has read its pages and its execution has finished (stopping n8n
		// in the middle of an execution loses that execution's items: see docs/spreadsheet-sync.md).
		const passes = passesStarted();
		await waitFor('a poll', async () => (passesStarted() > passes ? true : undefined), {
			timeoutMs: 60_000,
			intervalMs: 200,
		});
		await sleep(2_000);
		await allFinished();
		await n8n.stop();
		expect(await unfinished()).toBe(0);
		const expected = new Map<string, string>();
		for (let i = 0; i < AFTER_RESTART; i++) {
			const { lead } = await randomChange(sandbox, order[i], random);
			expected.set(lead.id, `${lead.id} ${lead.updated_at}`);
		}
		n8n = await startN8n({ userFolder, port: n8n.port, readyTimeoutMs: 180_000 });
		api = new N8nPublicApi(n8n, apiKey);
		const executions = await afterPolls(2);
		expect(executions.every((e) => e.status === 'success')).toBe(true);
		const items = itemsAfter(executions, executionsSoFar);
		expect(items.length).toBe(new Set(items).size);
		expect(items.sort()).toEqual([...expected.values()].sort());
		await expectTableEqualsLeads('after the restart');
	}, 1_200_000);
});
