// 12. Assignment request economy: requests per qualified lead of the round-robin example built on
// Lead → Assign (examples/qualified-lead-round-robin.json) against the example it replaced
// (bench/assign/old-round-robin.json, which read every assigned lead), side by side on the same
// sandbox, at several account sizes. Both run through n8n-core's engine from the trigger's item.
// Then the same example with a Capacity column in its roster, at several counts of assigned leads:
// Assign reads them all once per run, max(1, ⌈A/100⌉) requests for A leads in status assigned.

import { existsSync, readFileSync } from 'fs';
import { join } from 'path';

import { runWorkflow, startTestSandbox, type WorkflowSpec } from '../../harness/engine';
import type { RunningSandbox } from '../../sandbox';
import { REPO_ROOT } from '../lib/build';

export interface AssignEconomyArgs {
	sizes: number[];
	/** Qualified leads per workflow and size. */
	leads: number;
	/** Leads in status assigned in the account for the roster with a Capacity column. */
	capacityAssigned: number[];
}

export interface AssignEconomyRow {
	workflow: 'assign' | 'old' | 'capacity';
	leads: number;
	/** Leads in status assigned when the runs start: what the old example reads. */
	assignedInAccount: number;
	/** Mean requests per qualified lead: to /leads (the assignment) and all of the run. */
	assignRequests: number;
	allRequests: number;
	/** Requests that read a list of leads, over all runs. */
	listReads: number;
	ok: boolean;
	error?: string;
}

const TRIGGER = 'Lead qualified (score 70+)';
const ROSTER = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz'];

// The child process runs from bench/tmp/build, which holds only the transpiled code.
const SOURCE_ROOT = [REPO_ROOT, join(REPO_ROOT, '..', '..', '..')].find((dir) =>
	existsSync(join(dir, 'examples')),
)!;

function load(path: string): WorkflowSpec {
	return JSON.parse(readFileSync(join(SOURCE_ROOT, path), 'utf8')) as WorkflowSpec;
}

function workflowOf(kind: AssignEconomyRow['workflow']): WorkflowSpec {
	if (kind === 'old') return load('bench/assign/old-round-robin.json');
	const workflow = load('examples/qualified-lead-round-robin.json');
	// The engine has no n8n Data Tables: the rows the Data Table node would read are pinned. A
	// capacity no one reaches, so the count is read and nothing else changes.
	const capacity = kind === 'capacity' ? { capacity: 1_000_000 } : {};
	workflow.pinData = {
		Roster: ROSTER.map((user_id, index) => ({
			json: { id: index + 1, user_id, away: false, ...capacity },
		})),
	};
	return workflow;
}

async function measure(
	sandbox: RunningSandbox,
	kind: AssignEconomyRow['workflow'],
	leads: number,
	count: number,
): Promise<AssignEconomyRow> {
	const credentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
	const assignedInAccount = sandbox.control
		.state()
		.leads.filter(
			(lead) => lead.organization_id === 'org_alpha' && lead.status === 'assigned',
		).length;
	const workflow = workflowOf(kind);
	const row: AssignEconomyRow = {
		workflow: kind,
		leads,
		assignedInAccount,
		assignRequests: 0,
		allRequests: 0,
		listReads: 0,
		ok: true,
	};
	let assignRequests = 0;
	let allRequests = 0;
	for (let index = 0; index < count; index++) {
		const lead = sandbox.control.createChannelLead({ status: 'in_conversation' });
		const qualified = sandbox.control.qualifyLead(lead.id, 85);
		sandbox.control.clearRequests();
		const result = await runWorkflow(workflow, credentials, {
			startNode: TRIGGER,
			inputItems: [{ event: 'lead.qualified', data: qualified }],
			mode: 'webhook',
		});
		const requests = sandbox.control.requests();
		const after = sandbox.control.state().leads.find((l) => l.id === lead.id);
		if (result.status !== 'success' || !after?.assigned_to) {
			row.ok = false;
			row.error = result.error?.message ?? `lead ${lead.id} not assigned`;
		}
		assignRequests += requests.filter((r) => r.path.startsWith('/v1/leads')).length;
		allRequests += requests.length;
		row.listReads += requests.filter((r) => r.method === 'GET' && r.path === '/v1/leads').length;
	}
	row.assignRequests = assignRequests / count;
	row.allRequests = allRequests / count;
	return row;
}

export async function assignEconomy(args: AssignEconomyArgs): Promise<AssignEconomyRow[]> {
	const sandbox = await startTestSandbox({ leads: args.sizes[0], rateLimit: 1e9 });
	const rows: AssignEconomyRow[] = [];
	try {
		for (const leads of args.sizes) {
			for (const kind of ['assign', 'old'] as const) {
				sandbox.control.reset({ leads });
				rows.push(await measure(sandbox, kind, leads, args.leads));
			}
		}
		for (const assigned of args.capacityAssigned) {
			sandbox.control.reset({ leads: args.sizes[0] });
			const already = sandbox.control
				.state()
				.leads.filter((l) => l.organization_id === 'org_alpha' && l.status === 'assigned').length;
			for (let n = already; n < assigned; n++) {
				sandbox.control.createChannelLead({ status: 'assigned', assigned_to: 'user_elsewhere' });
			}
			// One lead: each assignment adds to A, and the figure is for A as stated.
			rows.push(await measure(sandbox, 'capacity', args.sizes[0], 1));
		}
	} finally {
		await sandbox.close();
	}
	return rows;
}
