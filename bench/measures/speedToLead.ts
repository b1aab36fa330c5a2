// 11. Speed to lead: requests per lead passed on and per lead escalated by the recipe
// (examples/reroute-uncontacted-leads.json), the trigger's share (the check of that lead's
// conversations) and the workflow's (Assign, the notice) counted apart in the sandbox's request
// log. The poll runs in n8n-core's PollContext, the workflow through n8n-core's engine with n8n's
// own Data Table, Merge, Remove Duplicates and If nodes (tables and store in memory). Section 10 measures the polls
// themselves against the number of assigned leads; this is what each lead adds on top.

import { existsSync, readFileSync } from 'fs';
import { join } from 'path';

import {
	InMemoryDataTables,
	runWorkflow,
	startTestSandbox,
	useMemoryDeduplication,
	type WorkflowSpec,
} from '../../harness/engine';
import {
	POLL_TRIGGER_NODE_TYPE,
	createPollHarness,
	loadPollTrigger,
	type PollHarness,
} from '../../harness/engine/poll';
import type { RunningSandbox } from '../../sandbox';
import { REPO_ROOT } from '../lib/build';
import {
	HAND_OFFS_COLUMNS,
	HAND_OFFS_TABLE,
	HAND_OFF_OUTCOMES,
} from '../../harness/support/handOffsTable';

export interface SpeedToLeadArgs {
	/** Leads in `assigned` besides the measured ones. */
	assigned: number;
	/** Leads whose wait ends in one poll. */
	perPoll: number[];
}

export interface SpeedToLeadRow {
	perPoll: number;
	assigned: number;
	/** The poll where the k waits ended: its list pages, and the checks of the k leads. */
	listRequests: number;
	checkRequests: number;
	/** The workflow's requests for the k leads. */
	workflowRequests: number;
	outcome: 'passed on' | 'escalated';
	/** (checks + workflow) ÷ k. */
	perLead: number;
	/** Leads the run handled as the outcome says (all k when it worked). */
	handled: number;
	ok: boolean;
	error?: string;
}

const MINUTE = 60_000;
const TRIGGER = 'Lead waited 15 minutes';
const ROSTER = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz', 'user_dario_sosa'];

// The child process runs from bench/tmp/build, which holds only the transpiled code.
const SOURCE_ROOT = [REPO_ROOT, join(REPO_ROOT, '..', '..', '..')].find((dir) =>
	existsSync(join(dir, 'examples')),
)!;

function recipe(): WorkflowSpec {
	const path = join(SOURCE_ROOT, 'examples', 'reroute-uncontacted-leads.json');
	// Production runs carry no pinned data.
	return { ...(JSON.parse(readFileSync(path, 'utf8')) as WorkflowSpec), pinData: {} };
}

function tables(): InMemoryDataTables {
	const all = new InMemoryDataTables();
	all.create(
		'Advisors roster',
		{ user_id: 'string', weight: 'number', away: 'boolean' },
		ROSTER.map((user_id) => ({ user_id, weight: 1, away: false })),
	);
	all.create(HAND_OFFS_TABLE, HAND_OFFS_COLUMNS, []);
	return all;
}

function requestsOf(sandbox: RunningSandbox) {
	const requests = sandbox.control.requests();
	const list = requests.filter((r) => r.path === '/v1/leads').length;
	return { list, other: requests.length - list };
}

/** The poll where the waits end, then the recipe's run on its items. */
async function endAndRun(
	sandbox: RunningSandbox,
	trigger: PollHarness,
	all: InMemoryDataTables,
	k: number,
	outcome: SpeedToLeadRow['outcome'],
	assigned: number,
): Promise<SpeedToLeadRow> {
	const credentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
	sandbox.control.advanceClock(16 * MINUTE);
	sandbox.control.clearRequests();
	const polled = await trigger.poll();
	const poll = requestsOf(sandbox);
	const row: SpeedToLeadRow = {
		perPoll: k,
		assigned,
		listRequests: poll.list,
		checkRequests: poll.other,
		workflowRequests: 0,
		outcome,
		perLead: 0,
		handled: 0,
		ok: true,
	};
	if (polled.error || polled.items?.length !== k) {
		return {
			...row,
			ok: false,
			error: polled.error?.message ?? `${polled.items?.length ?? 0} items`,
		};
	}
	sandbox.control.clearRequests();
	const rowsBefore = all.rowsOf(HAND_OFFS_TABLE).length;
	const result = await runWorkflow(recipe(), credentials, {
		startNode: TRIGGER,
		inputItems: polled.items,
		mode: 'trigger',
		dataTables: all,
		nodeTypes: { [POLL_TRIGGER_NODE_TYPE]: loadPollTrigger() },
	});
	row.workflowRequests = sandbox.control.requests().length;
	const written = all.rowsOf(HAND_OFFS_TABLE).slice(rowsBefore);
	row.handled = written.filter(
		(r) =>
			r.outcome ===
			(outcome === 'passed on' ? HAND_OFF_OUTCOMES.passedOn : HAND_OFF_OUTCOMES.escalated),
	).length;
	row.perLead = (row.checkRequests + row.workflowRequests) / k;
	if (result.status !== 'success' || row.handled !== k) {
		row.ok = false;
		row.error = result.error?.message ?? `${row.handled} of ${k} handled`;
	}
	return row;
}

export async function speedToLead(args: SpeedToLeadArgs): Promise<SpeedToLeadRow[]> {
	// n8n's de-duplication store, behind the recipe's Remove Duplicates node.
	await useMemoryDeduplication();
	const sandbox = await startTestSandbox({ leads: 0, rateLimit: 1e9 });
	const rows: SpeedToLeadRow[] = [];
	try {
		for (const k of args.perPoll) {
			sandbox.control.reset({ leads: 0 });
			for (let i = 0; i < args.assigned; i++) {
				const advisor = `user_${String(i % 40).padStart(10, '0')}`;
				sandbox.control.createChannelLead({ status: 'assigned', assigned_to: advisor });
			}
			const trigger = createPollHarness(
				{ event: 'assignedNotContacted', waitAmount: 15, waitUnit: 'minutes' },
				{ apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
			);
			await trigger.poll();
			// k leads that wrote in on chat, assigned after activation and never answered.
			for (let i = 0; i < k; i++) {
				const lead = sandbox.control.createChannelLead({
					status: 'assigned',
					assigned_to: ROSTER[i % ROSTER.length],
					vehicle_interest: 'Sedan',
				});
				sandbox.control.leadWrites(lead.id);
			}
			await trigger.poll();
			const all = tables();
			const total = args.assigned + k;
			rows.push(await endAndRun(sandbox, trigger, all, k, 'passed on', total));
			// The new advisors' waits are first seen, then end unanswered too.
			await trigger.poll();
			rows.push(await endAndRun(sandbox, trigger, all, k, 'escalated', total));
		}
	} finally {
		await sandbox.close();
	}
	return rows;
}
