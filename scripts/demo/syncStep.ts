// Step 1 of `npm run demo`: keep a spreadsheet in sync. examples/leads-mirror-to-file.json as
// shipped (only its file path points into demo-output/): the Polling Trigger's New or Updated
// Lead event, then n8n's own Read/Write Files from Disk, Extract from File, Merge (the upsert
// on the lead's ID), Sort and Convert to File. n8n polls the trigger on its schedule and starts
// a run with what the poll returns; the demo polls by hand, one poll after the other.

import { join, relative } from 'path';

import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, type RunResult } from '../../harness/engine';
import { createPollHarness, POLL_TRIGGER_NODE_TYPE } from '../../harness/engine/poll';
import { LeadConversationsPollTrigger } from '../../nodes/LeadConversationsPollTrigger/LeadConversationsPollTrigger.node';
import type { StoredLead } from '../../sandbox/contract';
import {
	checkRun,
	loadExample,
	outputDir,
	ownLeads,
	repoRoot,
	type DemoService,
	type Say,
} from './common';
import {
	changedRows,
	compareWithService,
	leadsAtService,
	readSheet,
	type RowChange,
	type SheetAgainstService,
	type SheetRow,
} from './sheet';

export const SYNC_EXAMPLE = 'leads-mirror-to-file.json';
const TRIGGER = 'Lead created or changed';
const FILE_NODES = ['Read the sheet', 'Write the sheet'];
/** Timestamps every change moves; the lines below name them once, not on every row. */
const CLOCK_COLUMNS = new Set(['updated_at', 'last_activity_at']);

export interface SyncOutcome {
	sheetPath: string;
	/** The sheet after the first poll, and after the poll that followed the changes. */
	first: SheetRow[];
	after: SheetRow[];
	changed: RowChange[];
	/** The sheet held against GET /leads once the changes were synced. */
	comparison: SheetAgainstService;
}

/** Four things a sales floor does to leads between two polls; returns what to tell. */
async function changeLeadsAtService({ sandbox }: DemoService): Promise<string[]> {
	// Leads with no open conversation: the assignment step's candidates stay as they are.
	const open = new Set(
		sandbox.control
			.state()
			.conversations.filter((c) => c.status === 'open')
			.map((c) => c.lead_id),
	);
	const pick = (what: string, fits: (lead: StoredLead) => boolean) => {
		const lead = ownLeads(sandbox).find((l) => !open.has(l.id) && fits(l));
		if (!lead) throw new Error(`The sandbox has no ${what}`);
		return lead;
	};
	const patch = async (lead: StoredLead, body: IDataObject) => {
		const res = await fetch(`${sandbox.baseUrl}/leads/${lead.id}`, {
			method: 'PATCH',
			headers: { 'X-API-Key': sandbox.keys.full, 'Content-Type': 'application/json' },
			body: JSON.stringify(body),
		});
		if (!res.ok) throw new Error(`PATCH /leads/${lead.id}: ${res.status}`);
	};

	// Chosen before any change, so each change is to a lead of its own.
	const scored = pick('new lead', (l) => l.status === 'new' && l.assigned_to === null);
	const toAssign = pick('qualified lead', (l) => l.status === 'qualified' && !l.assigned_to);
	const lost = pick('lead in conversation', (l) => l.status === 'in_conversation');
	sandbox.control.qualifyLead(scored.id, 82);
	await patch(toAssign, { status: 'assigned', assigned_to: 'user_carla_ruiz' });
	await patch(lost, { status: 'lost' });
	const arrived = sandbox.control.createChannelLead({
		name: 'Valentina Ríos',
		channel: 'chat_app',
		vehicle_interest: 'Volkswagen Amarok',
	});
	return [
		`the AI scores ${scored.name} 82 and qualifies them`,
		`${toAssign.name} is assigned to user_carla_ruiz`,
		`${lost.name} is marked lost`,
		`a new lead writes in on ${arrived.channel}: ${arrived.name}`,
	];
}

/** "Name: column before → after, …", broken between changes to keep lines short. */
function describeChange(change: RowChange, rows: SheetRow[]): string[] {
	const name = rows.find((row) => row.id === change.id)?.name ?? change.id;
	if (change.changes === null) return [`${name}: new row`];
	const lines = [`${name}:`];
	for (const { column, before, after } of change.changes) {
		if (CLOCK_COLUMNS.has(column)) continue;
		const text = `${column} ${before || '(empty)'} → ${after}`;
		const last = lines.length - 1;
		if (lines[last].endsWith(':')) lines[last] += ` ${text}`;
		else if (lines[last].length + text.length + 2 <= 72) lines[last] += `, ${text}`;
		else {
			lines[last] += ',';
			lines.push(text);
		}
	}
	return lines;
}

/** The example as shipped, its sheet at `sheetPath` instead of n8n's Docker folder. */
export function syncWorkflow(sheetPath: string) {
	const workflow = loadExample(SYNC_EXAMPLE);
	for (const node of workflow.nodes) {
		if (!FILE_NODES.includes(node.name)) continue;
		const parameters = node.parameters as IDataObject;
		if ('fileSelector' in parameters) parameters.fileSelector = sheetPath;
		else parameters.fileName = sheetPath;
	}
	return workflow;
}

/** The node types the example needs besides n8n-nodes-base's. */
export const syncNodeTypes = () => ({
	[POLL_TRIGGER_NODE_TYPE]: new LeadConversationsPollTrigger(),
});

export async function keepSpreadsheetInSync(
	service: DemoService,
	say: Say,
	sheetFolder = outputDir,
): Promise<SyncOutcome> {
	const { sandbox, credentials } = service;
	const sheetPath = join(sheetFolder, 'leads.csv');
	const workflow = syncWorkflow(sheetPath);
	const shownPath = relative(repoRoot, sheetPath);
	const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER)!;
	const trigger = createPollHarness(triggerNode.parameters ?? {}, credentials, {
		nodeName: TRIGGER,
	});
	const nodeTypes = syncNodeTypes();

	say(`1. Keep a spreadsheet in sync (examples/${SYNC_EXAMPLE})`);
	say(`   Each poll: leads created or changed since the last one, upserted on their ID`);
	say(`   into ${shownPath}.`);

	/** One poll; when it returns leads, n8n runs the workflow with them. */
	const pollAndRun = async (): Promise<{ items: IDataObject[]; run?: RunResult }> => {
		const poll = await trigger.poll();
		if (poll.error) throw poll.error;
		if (poll.items === null) return { items: [] };
		const run = await runWorkflow(workflow, credentials, {
			startNode: TRIGGER,
			inputItems: poll.items,
			mode: 'trigger',
			nodeTypes,
		});
		checkRun(run, 'Keep a spreadsheet in sync');
		return { items: poll.items, run };
	};

	const firstPoll = await pollAndRun();
	const first = readSheet(sheetPath);
	say(
		`   First poll (Include Existing Leads is on): ${firstPoll.items.length} leads → ${first.length} rows.`,
	);

	say('   Then, at the service:');
	for (const line of await changeLeadsAtService(service)) say(`   - ${line}`);

	const nextPoll = await pollAndRun();
	const after = readSheet(sheetPath);
	const changed = changedRows(first, after);
	const added = changed.filter((change) => change.changes === null).length;
	say(
		`   Next poll: ${nextPoll.items.length} leads changed → ${changed.length - added} rows updated, ` +
			`${added} added, ${after.length - changed.length} untouched:`,
	);
	for (const change of changed) {
		const [first, ...rest] = describeChange(change, after);
		say(`   - ${first}`);
		for (const line of rest) say(`     ${line}`);
	}
	say('     (and each changed row got its new updated_at and last_activity_at)');

	const quiet = await pollAndRun();
	say(
		quiet.run
			? `   A poll with no change still brought ${quiet.items.length} leads.`
			: '   A poll with nothing new: no run, the file stays as it is.',
	);

	const comparison = compareWithService(
		readSheet(sheetPath),
		await leadsAtService(sandbox.baseUrl, sandbox.keys.full),
	);
	const wrong = comparison.missing.length + comparison.extra.length + comparison.duplicated.length;
	say(
		`   The sheet against GET /leads: ${comparison.rows} rows for ${comparison.leads} leads, ` +
			`${comparison.differingCells.length} of ${comparison.cells} cells differ` +
			(wrong > 0 ? `, ${wrong} rows missing, extra or twice.` : '.'),
	);
	for (const cell of comparison.differingCells.slice(0, 5)) say(`   ! ${cell}`);
	say('   In n8n: import this file, or leads-mirror-to-data-table.json (an n8n');
	say('   Data Table, no other account), or leads-mirror-to-google-sheets.json.');
	return { sheetPath, first, after, changed, comparison };
}
