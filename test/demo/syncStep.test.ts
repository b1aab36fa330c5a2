import { spawnSync } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { runWorkflow } from '../../harness/engine';
import { FLAT_LEAD_COLUMNS } from '../../nodes/shared/flatLead';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import type { StoredLead } from '../../sandbox/contract';
import { compareWithService, parseCsv, readSheet } from '../../scripts/demo/sheet';
import { syncNodeTypes, syncWorkflow, type SyncOutcome } from '../../scripts/demo/syncStep';
import { n8nEngine } from '../compat/engine';

// The first step of `npm run demo`: examples/leads-mirror-to-file.json through n8n's engine and
// n8n-nodes-base's own file nodes. The sheet it leaves must be the service's leads, every cell.

const allowed = mkdtempSync(join(tmpdir(), 'lc-demo-sheet-'));
const outside = mkdtempSync(join(tmpdir(), 'lc-demo-outside-'));
// n8n 2 lets its file nodes reach only these folders; read when the first file node runs.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = allowed;

let sandbox: RunningSandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, leads: 24, seed: 20261121 });
});

afterAll(async () => {
	await sandbox?.close();
	rmSync(allowed, { recursive: true, force: true });
	rmSync(outside, { recursive: true, force: true });
});

/** Leads as a sheet shows them: every column as text, empty for none, oldest first. */
function asRows(leads: StoredLead[]) {
	return [...leads]
		.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
		.map((lead) =>
			Object.fromEntries(
				FLAT_LEAD_COLUMNS.map((column) => {
					const value = (lead as unknown as Record<string, unknown>)[column];
					return [column, value === null || value === undefined ? '' : String(value)];
				}),
			),
		);
}

const ownLeads = () =>
	sandbox.control.state().leads.filter((lead) => lead.organization_id === 'org_alpha');

// The demo runs on the n8n 2 engine of the main install; n8n 1.x's own file nodes are not here.
const describeOnN8n2 = n8nEngine.major === 1 ? describe.skip : describe;

describeOnN8n2('npm run demo, step 1: keep a spreadsheet in sync', () => {
	it('after the fill, four changes at the service and the next poll, the sheet is the service’s leads, every cell, oldest first', () => {
		const child = spawnSync(
			process.execPath,
			[
				require.resolve('ts-node/dist/bin'),
				'--transpile-only',
				join(__dirname, 'syncStepChild.ts'),
			],
			{
				cwd: join(__dirname, '..', '..'),
				encoding: 'utf8',
				env: { ...process.env, N8N_RESTRICT_FILE_ACCESS_TO: allowed },
				timeout: 60_000,
			},
		);
		expect(child.stderr).toBe('');
		const { outcome, lines, leads } = JSON.parse(child.stdout) as {
			outcome: SyncOutcome;
			lines: string[];
			leads: StoredLead[];
		};

		expect(outcome.first).toHaveLength(24);
		expect(readSheet(outcome.sheetPath)).toEqual(asRows(leads));
		expect(outcome.after).toHaveLength(25);
		// Three rows changed in place and one added: the four leads the step changed, no other.
		expect(outcome.changed.filter((change) => change.changes === null)).toHaveLength(1);
		expect(outcome.changed).toHaveLength(4);
		expect(outcome.comparison).toEqual({
			rows: 25,
			leads: 25,
			cells: 25 * FLAT_LEAD_COLUMNS.length,
			differingCells: [],
			missing: [],
			extra: [],
			duplicated: [],
		});
		expect(lines).toContain(
			'   The sheet against GET /leads: 25 rows for 25 leads, 0 of 350 cells differ.',
		);
	});

	it('the check finds a cell that differs, a row missing and a row twice', () => {
		const leads = ownLeads();
		const rows = asRows(leads);
		const edited = rows.map((row) => ({ ...row }));
		edited[0].status = 'closed' === rows[0].status ? 'lost' : 'closed';
		edited[1] = { ...edited[2] };
		const result = compareWithService(edited, leads as never);
		expect(result.differingCells).toEqual([
			expect.stringMatching(new RegExp(`^${rows[0].id}\\.status: `)),
		]);
		expect(result.missing).toEqual([rows[1].id]);
		expect(result.duplicated).toEqual([rows[2].id]);
	});

	it('a sheet n8n may not read stops the run at "Stop: the sheet cannot be read", before the file is written', async () => {
		const sheetPath = join(outside, 'leads.csv');
		writeFileSync(sheetPath, 'id,name\nlead_x,Kept as it was\n');
		const result = await runWorkflow(
			syncWorkflow(sheetPath),
			{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
			{
				startNode: 'Lead created or changed',
				inputItems: [{ id: 'lead_y', name: 'Changed' }],
				mode: 'trigger',
				nodeTypes: syncNodeTypes(),
			},
		);
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/not allowed/);
		expect(result.run.data.resultData.lastNodeExecuted).toBe('Stop: the sheet cannot be read');
		expect(result.output('Write the sheet')).toEqual([]);
		expect(readSheet(sheetPath)).toEqual([{ id: 'lead_x', name: 'Kept as it was' }]);
	});
});

describe('reading the sheet back', () => {
	it('reads quoted cells with commas, doubled quotes and line breaks, and a byte order mark', () => {
		expect(parseCsv('a,b\r\n"x, y","say ""hi""\nthere"\n,\n')).toEqual([
			['a', 'b'],
			['x, y', 'say "hi"\nthere'],
			['', ''],
		]);
	});
});
