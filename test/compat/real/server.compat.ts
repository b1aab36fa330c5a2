import { mkdirSync, readdirSync } from 'fs';
import { join } from 'path';

import type { RunningSandbox } from '../../../sandbox';
import { pollTimesEvery } from '../../../harness/queue/pathWorkflows';
import { createDataTable, readDataTable } from '../../../harness/real-n8n/dataTables';
import {
	listExecutions,
	nodeOutput,
	waitForExecutions,
	waitForTriggerStatus,
	type ExecutionSummary,
} from '../../../harness/real-n8n/executions';
import {
	columnOf,
	INSTANT_EXAMPLE,
	LEAD_FIELDS,
	leadsOfAccount,
	MIRROR_EXAMPLE,
	mirrorDifferences,
	patchLead,
} from '../../../harness/real-n8n/leadsMirror';
import { pickDataTable, rejectedKeyMessage } from '../../../harness/real-n8n/n8nLine';
import {
	startN8nWithApi,
	type N8nPublicApi,
	type N8nServer,
	type N8nSession,
} from '../../../harness/real-n8n/n8n-server';
import { e2eWorkflowsDir, examplesDir, packageName } from '../../../harness/real-n8n/paths';
import { waitFor } from '../../../harness/real-n8n/processes';
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	writeWorkflowFiles,
} from '../../../harness/real-n8n/setup';
import { makeSelfSignedCertificate } from '../../../harness/real-n8n/tls';
import { SIGNING_SECRET_CREDENTIAL_TYPE } from '../../../harness/real-n8n/verifyWorkflows';
import { freePort } from '../../../harness/support/ports';
import { FLAT_LEAD_COLUMNS } from '../../../nodes/shared/flatLead';
import { compareWithService, readSheet } from '../../../scripts/demo/sheet';
import { syncWorkflow } from '../../../scripts/demo/syncStep';
import { deliverForged } from '../../e2e/support/deliveries';
import { POLL_NODE } from '../../e2e/support/pollTrigger';
import {
	allowedAdvisors,
	HANDOFF_COLUMNS,
	RECIPE_GUARD,
	recipeWorkflow,
	SHIPPED_TABLES,
} from '../../support/speedToLead';
import {
	example,
	packageWarnings,
	prepareCompatFolder,
	readWorkflow,
	type CompatFolder,
	type Workflow,
} from './support';
import { moveIntoOpenHours } from '../../../harness/support/showroomHours';

// The checks one `n8n start` over HTTPS (self-signed) runs, in the n8n line LC_N8N_INSTALL names
// (run.mjs sets it): what the editor lists, the credential test, both triggers, Verify and the
// examples that need a running n8n, the Data Table ones as a user of that line sets them up.
// Each check is one line of the table run.mjs prints.

const VERIFY_PATH = 'lead-events-verified';
const SECRET_CREDENTIAL = { id: 'LcSigningSecret01', name: 'Lead Conversations signing secret' };
const POLL_SECONDS = 15;
/** The reroute example's Poll Times: its wait passes by the service's clock, the polls in real time. */
const REROUTE_POLL_SECONDS = 10;
const ROSTER = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz'];
const IDS = { poll: 'LcCompatPoll0001', trigger: 'LcE2eTrigger0001' };

let folder: CompatFolder;
let sandbox: RunningSandbox;
let userFolder: string;
let port: number;
let verifySubscription: { id: string; secret: string };
let sheets: string;

/** The e2e poll workflow (New Lead) with Poll Times every 15 s. */
function pollWorkflow(): Workflow {
	const workflow = readWorkflow(join(e2eWorkflowsDir, 'poll-new-leads.json'));
	workflow.nodes[0].parameters.pollTimes = pollTimesEvery(POLL_SECONDS);
	return { ...workflow, id: IDS.poll, name: 'Compat: poll new leads' };
}

/** The endpoint the Verify example receives on, added the way the service's dashboard does. */
async function subscribeVerifyEndpoint(service: RunningSandbox) {
	const res = await fetch(`${service.baseUrl}/webhooks`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'X-API-Key': service.keys.full },
		body: JSON.stringify({
			url: `https://localhost:${port}/webhook/${VERIFY_PATH}`,
			events: ['lead.qualified'],
		}),
	});
	expect(res.status).toBe(201);
	return (await res.json()) as { id: string; secret: string };
}

beforeAll(async () => {
	port = await freePort();
	folder = await prepareCompatFolder(
		'compat-server',
		async (service) => {
			verifySubscription = await subscribeVerifyEndpoint(service);
			const data = { signingSecret: verifySubscription.secret };
			return [{ ...SECRET_CREDENTIAL, type: SIGNING_SECRET_CREDENTIAL_TYPE, data }];
		},
		(user) => [
			join(e2eWorkflowsDir, 'trigger-lead-events.json'),
			join(examplesDir, 'verified-webhook-events.json'),
			...writeWorkflowFiles(user, [pollWorkflow()]),
		],
	);
	({ sandbox, userFolder } = folder);
}, 600_000);

afterAll(async () => {
	await folder?.sandbox.close();
});

describe('one n8n start over HTTPS (self-signed)', () => {
	let n8n: N8nServer;
	let session: N8nSession;
	let api: N8nPublicApi;
	let pollStarted = 0;
	let polledLeads: string[] = [];
	let leadsTable = '';
	let rosterTable = '';

	const activate = async (workflowId: string) => {
		const res = await api.request('POST', `/workflows/${workflowId}/activate`);
		if (res.status !== 200) throw new Error(`activate ${workflowId}: ${res.status} ${res.text}`);
		const [status] = await waitForTriggerStatus(userFolder, workflowId);
		expect(status).toMatchObject({ status: 'activated', errorMessage: null });
	};
	const deactivate = async (workflowId: string) => {
		expect((await api.request('POST', `/workflows/${workflowId}/deactivate`)).status).toBe(200);
	};
	const executionsWith = async (workflowId: string, node: string, leadId: string) =>
		(await listExecutions(api, workflowId, true)).filter((e) =>
			nodeOutput(e, node).some((i) => (i.json.data?.id ?? i.json.id) === leadId),
		);
	/** A lead still `new` with an open conversation and no advisor. */
	const freshLeads = (count: number) => {
		const state = sandbox.control.state();
		const open = new Set(
			state.conversations.filter((c) => c.status === 'open').map((c) => c.lead_id),
		);
		return state.leads
			.filter(
				(l) =>
					l.organization_id === 'org_alpha' &&
					l.status === 'new' &&
					!l.assigned_to &&
					open.has(l.id),
			)
			.slice(0, count);
	};
	/** An example as the user has it after importing it: on 1.x with its Data Table chosen From List. */
	const createWorkflow = async (
		workflow: { name: string; nodes: any[]; connections: object; settings?: object },
		tables: Record<string, string>,
	) => {
		for (const node of workflow.nodes) {
			if (node.type === 'n8n-nodes-base.dataTable') {
				node.parameters.dataTableId = pickDataTable(node.parameters.dataTableId, tables);
			}
		}
		const { nodes, connections, settings, name } = workflow;
		const res = await api.request('POST', '/workflows', { name, nodes, connections, settings });
		if (res.status !== 200) throw new Error(`POST /workflows ${name}: ${res.status} ${res.text}`);
		return String(res.json.id);
	};
	const createExample = async (
		file: string,
		tables: Record<string, string>,
		edit?: (w: Workflow) => void,
	) => {
		const workflow = example(file);
		edit?.(workflow);
		return await createWorkflow(workflow, tables);
	};
	const tableName = (file: string) =>
		example(file).nodes.find((n: any) => n.type === 'n8n-nodes-base.dataTable').parameters
			.dataTableId.value;

	beforeAll(async () => {
		const certificate = await makeSelfSignedCertificate(userFolder);
		// The folder n8n's file nodes may reach (the CSV example's sheet).
		sheets = join(userFolder, 'sheets');
		mkdirSync(sheets);
		({ n8n, session, api } = await startN8nWithApi({
			userFolder,
			certificate,
			port,
			readyTimeoutMs: 180_000,
			env: { N8N_RESTRICT_FILE_ACCESS_TO: sheets },
		}));
		await activate(example('verified-webhook-events.json').id);
	}, 300_000);

	afterAll(async () => {
		if (n8n) folder.printed.push(n8n.log());
		await n8n?.stop();
	});

	it('the three nodes, the tool variant and both credentials are listed (no tool-usage setting)', async () => {
		const nodes = await session.fetch('GET', '/types/nodes.json');
		const names = (nodes.json as Array<{ name: string }>)
			.map((n) => n.name)
			.filter((n) => n.startsWith(packageName));
		expect([...new Set(names)].sort()).toEqual(
			[
				'leadConversations',
				'leadConversationsPollTrigger',
				'leadConversationsTool',
				'leadConversationsTrigger',
			].map((n) => `${packageName}.${n}`),
		);
		const credentials = await session.fetch('GET', '/types/credentials.json');
		const types = (credentials.json as Array<{ name: string }>).map((c) => c.name);
		expect(types).toEqual(
			expect.arrayContaining(['leadConversationsApi', SIGNING_SECRET_CREDENTIAL_TYPE]),
		);
	});

	it('every node of every example is in the editor’s node list at its version', async () => {
		// A version the line lacks still runs through the API, but the editor shows the node as unknown.
		const listed = new Map<string, Set<number>>();
		const types = (await session.fetch('GET', '/types/nodes.json')).json as Array<{
			name: string;
			version: number | number[];
		}>;
		for (const type of types) {
			const versions = listed.get(type.name) ?? new Set<number>();
			for (const version of [type.version].flat()) versions.add(version);
			listed.set(type.name, versions);
		}
		const files = readdirSync(examplesDir).filter((file) => file.endsWith('.json'));
		const unknown = files.flatMap((file) =>
			example(file)
				.nodes.filter((node) => !listed.get(node.type)?.has(node.typeVersion))
				.map((node) => `${file}: ${node.name} (${node.type} ${node.typeVersion})`),
		);
		expect(files.length).toBeGreaterThan(5);
		expect(unknown).toEqual([]);
	});

	it('credential Test: a good key passes, a bad key fails with the reason and without the key', async () => {
		const test = (apiKey: string) =>
			session.request('POST', '/credentials/test', {
				credentials: {
					id: CREDENTIAL_ID,
					name: CREDENTIAL_NAME,
					type: 'leadConversationsApi',
					data: { apiKey, baseUrl: sandbox.baseUrl },
				},
			});
		expect((await test(sandbox.keys.full)).json.data).toMatchObject({ status: 'OK' });
		const bad = (await test('lc_not_a_real_key')).json.data;
		expect(bad.status).toBe('Error');
		expect(bad.message).toMatch(rejectedKeyMessage());
		expect(bad.message).not.toContain('lc_not_a_real_key');
	});

	it('Polling Trigger: activated, its first poll starts nothing', async () => {
		await activate(IDS.poll);
		await new Promise((r) => setTimeout(r, 2000));
		expect(await listExecutions(api, IDS.poll)).toEqual([]);
		polledLeads = [
			sandbox.control.createChannelLead({ name: 'Iara Lopes', channel: 'web_form' }).id,
			sandbox.control.createChannelLead({ name: 'Joaquín Paz', channel: 'marketplace' }).id,
		];
		pollStarted = Date.now();
	});

	it('Trigger: activation subscribes n8n’s https production URL', async () => {
		await sandbox.control.whenDeliveriesSettled();
		await activate(IDS.trigger);
		const subscriptions = sandbox.control.webhooks().filter((w) => w.id !== verifySubscription.id);
		expect(subscriptions).toHaveLength(1);
		expect(subscriptions[0].url).toMatch(/^https:\/\/localhost:\d+\/webhook\/.+\/webhook$/);
	});

	it('Trigger: a signed delivery starts one execution; a forged one is answered 401 and starts none', async () => {
		const [lead] = freshLeads(1);
		sandbox.control.qualifyLead(lead.id, 88);
		await sandbox.control.whenDeliveriesSettled();
		const runs = await waitFor('the trigger’s execution', async () => {
			const found = await executionsWith(IDS.trigger, 'Lead Conversations Trigger', lead.id);
			return found.length > 0 ? found : undefined;
		});
		expect(runs).toHaveLength(1);
		expect(runs[0].status).toBe('success');

		const before = (await listExecutions(api, IDS.trigger)).length;
		const subscription = sandbox.control.webhooks().find((w) => w.id !== verifySubscription.id)!;
		expect((await deliverForged(sandbox, subscription.id)).status).toBe(401);
		await new Promise((r) => setTimeout(r, 1500));
		expect(await listExecutions(api, IDS.trigger)).toHaveLength(before);
	});

	it('Trigger: deactivation deletes the subscription', async () => {
		await deactivate(IDS.trigger);
		await waitFor('the subscription to be deleted', () =>
			sandbox.control.webhooks().length === 1 ? true : undefined,
		);
		expect(
			sandbox.control.requests().filter((r) => r.method === 'DELETE' && r.status === 204).length,
		).toBeGreaterThan(0);
	});

	it('Event → Verify (example verified-webhook-events): a signed delivery comes out of Verified, a forged one out of Rejected', async () => {
		const workflowId = example('verified-webhook-events.json').id;
		const verified = (await listExecutions(api, workflowId, true)).filter(
			(e) => nodeOutput(e, 'Verified').length > 0,
		);
		expect(verified.length).toBeGreaterThan(0);
		for (const execution of verified) expect(nodeOutput(execution, 'Rejected')).toEqual([]);

		const before = (await listExecutions(api, workflowId)).length;
		expect((await deliverForged(sandbox, verifySubscription.id)).status).toBe(200);
		const [newest] = await waitForExecutions(api, workflowId, before + 1);
		expect(nodeOutput(newest, 'Verified')).toEqual([]);
		expect(nodeOutput(newest, 'Rejected').map((i) => i.json.reason)).toEqual(['invalid_signature']);
		expect(JSON.stringify(newest.data)).not.toContain(verifySubscription.secret);
	});

	it('Lead → Assign (example qualified-lead-round-robin, roster in a Data Table): each advisor in turn, each lead told', async () => {
		const file = 'qualified-lead-round-robin.json';
		rosterTable = await createDataTable(
			session,
			tableName(file),
			[
				{ name: 'user_id', type: 'string' },
				{ name: 'weight', type: 'number' },
				{ name: 'away', type: 'boolean' },
			],
			ROSTER.map((user_id) => ({ user_id, weight: 1, away: false })),
		);
		const workflowId = await createExample(file, { [tableName(file)]: rosterTable });
		await activate(workflowId);
		const leads = freshLeads(3);
		for (const [index, lead] of leads.entries()) {
			sandbox.control.qualifyLead(lead.id, 80 + index);
			await sandbox.control.whenDeliveriesSettled();
			await waitForExecutions(api, workflowId, index + 1);
		}
		const after = sandbox.control.state();
		const executions: ExecutionSummary[] = await listExecutions(api, workflowId);
		expect(executions.every((e) => e.status === 'success')).toBe(true);
		expect(leads.map((l) => after.leads.find((a) => a.id === l.id)!.assigned_to)).toEqual(ROSTER);
		for (const lead of leads) {
			const told = after.conversations
				.filter((c) => c.lead_id === lead.id)
				.some((c) => c.messages.some((m) => m.content === 'An advisor will contact you shortly'));
			expect(told).toBe(true);
		}
		await deactivate(workflowId);
	});

	it('example leads-to-spreadsheet, scheduled: every lead in one CSV file, then only the new lead, then none', async () => {
		const workflowId = await createExample('leads-to-spreadsheet.json', {}, (workflow) => {
			const schedule = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.scheduleTrigger');
			schedule.parameters.rule = { interval: [{ field: 'seconds', secondsInterval: 10 }] };
		});
		await activate(workflowId);
		const leadsOf = (e: ExecutionSummary) =>
			nodeOutput(e, 'New leads since last run').map((i) => i.json.id);
		const [first] = await waitForExecutions(api, workflowId, 1, 30_000);
		expect(first.status).toBe('success');
		expect(leadsOf(first).length).toBe(
			sandbox.control.state().leads.filter((l) => l.organization_id === 'org_alpha').length,
		);
		expect(Object.keys(nodeOutput(first, 'New leads since last run')[0].json)).toEqual([
			...FLAT_LEAD_COLUMNS,
		]);
		const [file] = nodeOutput(first, 'Spreadsheet file') as Array<{ binary?: any }>;
		expect(file.binary.data).toMatchObject({ mimeType: 'text/csv', fileExtension: 'csv' });
		const arrived = sandbox.control.createChannelLead({
			name: 'Valentina Ríos',
			channel: 'chat_app',
		});
		const executions = await waitFor(
			'a run with the new lead and one after it',
			async () => {
				const all = (await listExecutions(api, workflowId, true)).reverse();
				const withLead = all.findIndex((e) => leadsOf(e).includes(arrived.id));
				return withLead > 0 && all.length > withLead + 1 ? all : undefined;
			},
			{ timeoutMs: 60_000, intervalMs: 1000 },
		);
		await deactivate(workflowId);
		const later = executions.slice(1).map(leadsOf);
		expect(later.filter((ids) => ids.length > 0)).toEqual([[arrived.id]]);
	});

	it('example qualified-and-assigned-to-data-table: a qualified lead is upserted into the Data Table', async () => {
		const name = tableName(INSTANT_EXAMPLE);
		leadsTable = await createDataTable(
			session,
			name,
			LEAD_FIELDS.map((field) => ({
				name: columnOf(field),
				type: field === 'score' ? 'number' : 'string',
			})),
		);
		await sandbox.control.whenDeliveriesSettled();
		const instant = await createExample(INSTANT_EXAMPLE, { [name]: leadsTable });
		await activate(instant);
		const [lead] = freshLeads(1);
		sandbox.control.qualifyLead(lead.id, 75);
		await sandbox.control.whenDeliveriesSettled();
		await waitForExecutions(api, instant, 1);
		const rows = await readDataTable(session, leadsTable);
		expect(rows.map((r) => r.lead_id)).toEqual([lead.id]);
		expect(rows[0]).toMatchObject({ status: 'qualified', score: 75 });
		await deactivate(instant);
	});

	it('example leads-mirror-to-data-table: the Data Table equals GET /leads field by field', async () => {
		const name = tableName(MIRROR_EXAMPLE);
		expect(tableName(INSTANT_EXAMPLE)).toBe(name);
		const mirror = await createExample(MIRROR_EXAMPLE, { [name]: leadsTable }, (workflow) => {
			const trigger = workflow.nodes.find((n) => n.type.endsWith('.leadConversationsPollTrigger'));
			trigger.parameters.pollTimes = pollTimesEvery(POLL_SECONDS);
			// What the sticky note asks for to fill the table with the leads that already exist.
			trigger.parameters.options = { ...trigger.parameters.options, includeExistingLeads: true };
		});
		await activate(mirror);
		const leads = await leadsOfAccount(sandbox);
		let differences = mirrorDifferences([], leads);
		await waitFor(
			'the table to equal GET /leads',
			async () => {
				differences = mirrorDifferences(await readDataTable(session, leadsTable), leads);
				return Object.values(differences).every((list) => list.length === 0) ? true : undefined;
			},
			{ timeoutMs: 120_000, intervalMs: 2000 },
		).catch(() => undefined);
		// The first pass's execution may still be finishing: deactivate once none runs.
		const runs = await waitFor(
			'the mirror’s executions to finish',
			async () => {
				const all = await listExecutions(api, mirror, true);
				return all.some((e) => e.status === 'running' || e.status === 'new') ? undefined : all;
			},
			{ timeoutMs: 60_000, intervalMs: 1000 },
		);
		await deactivate(mirror);
		const errors = runs
			.filter((e) => e.status !== 'success')
			.map((e) => `${e.status}: ${e.data?.resultData?.error?.message}`);
		const shown = Object.fromEntries(
			Object.entries(differences).map(([k, v]) => [k, `${v.length}: ${v.slice(0, 3).join(', ')}`]),
		);
		expect({ errors, ...shown }).toEqual({
			errors: [],
			differingCells: '0: ',
			missing: '0: ',
			extra: '0: ',
			duplicated: '0: ',
		});
	});

	it('Polling Trigger: each new lead in exactly one execution, over two more polls', async () => {
		// Two Poll Times after the one that announced them.
		const settled = pollStarted + 3 * POLL_SECONDS * 1000 + 5000;
		await new Promise((r) => setTimeout(r, Math.max(0, settled - Date.now())));
		for (const leadId of polledLeads) {
			expect(await executionsWith(IDS.poll, POLL_NODE, leadId)).toHaveLength(1);
		}
		await deactivate(IDS.poll);
	});

	it('example leads-mirror-to-file: the activation poll fills the CSV file, a change comes with the next poll, the file equals GET /leads each time', async () => {
		const sheetPath = join(sheets, 'leads.csv');
		const workflow = syncWorkflow(sheetPath) as unknown as Workflow;
		const trigger = workflow.nodes.find((n) => n.type.endsWith('.leadConversationsPollTrigger'));
		trigger.parameters.pollTimes = pollTimesEvery(POLL_SECONDS);
		const workflowId = await createWorkflow(workflow, {});
		const sheetAgainstService = async () => {
			const { differingCells, missing, extra, duplicated, rows } = compareWithService(
				readSheet(sheetPath),
				await leadsOfAccount(sandbox),
			);
			const shown = (list: string[]) => `${list.length}: ${list.slice(0, 3).join(', ')}`;
			return {
				rows,
				differingCells: shown(differingCells),
				missing: shown(missing),
				extra: shown(extra),
				duplicated: shown(duplicated),
			};
		};
		const same = { differingCells: '0: ', missing: '0: ', extra: '0: ', duplicated: '0: ' };
		await activate(workflowId);
		const [fill] = await waitForExecutions(api, workflowId, 1, 120_000);
		expect(fill.status).toBe('success');
		const leadCount = (await leadsOfAccount(sandbox)).length;
		expect(await sheetAgainstService()).toEqual({ rows: leadCount, ...same });

		const [lead] = freshLeads(1);
		sandbox.control.qualifyLead(lead.id, 82);
		const after = await waitFor(
			'the next poll to bring the changed lead',
			async () => {
				const runs = (await listExecutions(api, workflowId, true)).filter((e) => e.id !== fill.id);
				const ids = runs.flatMap((e) =>
					nodeOutput(e, 'Lead created or changed').map((i) => String(i.json.id)),
				);
				const done = runs.every((e) => e.status !== 'running' && e.status !== 'new');
				return done && ids.includes(lead.id) ? { runs, ids } : undefined;
			},
			{ timeoutMs: (POLL_SECONDS + 60) * 1000, intervalMs: 500 },
		);
		await deactivate(workflowId);
		expect(after.runs.map((e) => e.status)).toEqual(after.runs.map(() => 'success'));
		expect(after.ids).toEqual([lead.id]);
		expect(await sheetAgainstService()).toEqual({ rows: leadCount, ...same });
	});

	it('example reroute-uncontacted-leads (the service’s clock moved past the 15-minute wait): the unanswered leads passed on once to another advisor and logged, the answered one left, none back', async () => {
		const handoffsTable = await createDataTable(session, SHIPPED_TABLES.handoffs, HANDOFF_COLUMNS);
		const workflowId = await createWorkflow(recipeWorkflow(SHIPPED_TABLES, REROUTE_POLL_SECONDS), {
			[SHIPPED_TABLES.roster]: rosterTable,
			[SHIPPED_TABLES.handoffs]: handoffsTable,
		});
		const polls = () =>
			sandbox.control
				.requests()
				.filter((r) => r.path === '/v1/leads' && r.query.status === 'assigned').length;
		const nextPoll = async () => {
			const before = polls();
			await waitFor('a poll', () => (polls() > before ? true : undefined), {
				timeoutMs: REROUTE_POLL_SECONDS * 1000 + 30_000,
				intervalMs: 200,
			});
		};
		const MINUTE = 60_000;
		const pollsBefore = polls();
		await activate(workflowId);
		// Leads assigned before the trigger's first poll are not announced: assign after it.
		await waitFor('the first poll', () => (polls() > pollsBefore ? true : undefined), {
			timeoutMs: REROUTE_POLL_SECONDS * 1000 + 30_000,
			intervalMs: 200,
		});
		await new Promise((r) => setTimeout(r, 1000));
		const leads = freshLeads(3);
		for (const [index, lead] of leads.entries()) {
			sandbox.control.qualifyLead(lead.id, 85);
			await patchLead(sandbox, lead.id, { status: 'assigned', assigned_to: ROSTER[index] });
		}
		const [answered, ...missed] = leads.map((l) => l.id);
		// The poll that sees them assigned starts their waits.
		await nextPoll();
		const since = Date.now();
		sandbox.control.advanceClock(2 * MINUTE);
		const conversation = sandbox.control
			.state()
			.conversations.find((c) => c.lead_id === answered && c.status === 'open')!;
		const reply = await fetch(`${sandbox.baseUrl}/conversations/${conversation.id}/messages`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', 'X-API-Key': sandbox.keys.full },
			body: JSON.stringify({ content: 'Hi, this is your advisor: when can I call you?' }),
		});
		expect(reply.status).toBe(201);
		// The example counts its wait in opening hours: on to an open stretch when not in one.
		moveIntoOpenHours(sandbox.control);
		sandbox.control.advanceClock(14 * MINUTE);
		await waitFor(
			'both unanswered leads passed on and logged',
			async () => {
				const rows = await readDataTable(session, handoffsTable);
				return missed.every((id) => rows.some((r) => r.lead_id === id)) ? true : undefined;
			},
			{ timeoutMs: REROUTE_POLL_SECONDS * 1000 + 90_000, intervalMs: 500 },
		);
		// Two more polls: nothing else may happen.
		await nextPoll();
		await nextPoll();
		const runs = await waitFor(
			'the recipe’s runs to finish',
			async () => {
				const all = await listExecutions(api, workflowId, true);
				return all.some((e) => e.status === 'running' || e.status === 'new') ? undefined : all;
			},
			{ timeoutMs: 60_000, intervalMs: 500 },
		);
		await deactivate(workflowId);

		expect(runs.map((e) => e.status)).toEqual(runs.map(() => 'success'));
		const passed = runs.flatMap((e) => nodeOutput(e, RECIPE_GUARD).map((i) => String(i.json.id)));
		expect(passed.sort()).toEqual([...missed].sort());
		const state = sandbox.control.state();
		const leadNow = (id: string) => state.leads.find((l) => l.id === id)!;
		const patches = (id: string) =>
			sandbox.control
				.requests()
				.filter((r) => r.at >= since && r.method === 'PATCH' && r.path === `/v1/leads/${id}`);
		const rows = await readDataTable(session, handoffsTable);
		const roster = ROSTER.map((user_id) => ({ user_id, weight: 1, away: false }));
		expect(leadNow(answered).assigned_to).toBe(ROSTER[0]);
		expect(patches(answered)).toHaveLength(0);
		for (const id of missed) {
			const before = ROSTER[leads.findIndex((l) => l.id === id)];
			const now = leadNow(id);
			expect(now.assigned_to).not.toBe(before);
			expect(allowedAdvisors(roster, now, [before])).toContain(now.assigned_to);
			expect(patches(id)).toHaveLength(1);
			const told = state.conversations
				.filter((c) => c.lead_id === id)
				.flatMap((c) => c.messages)
				.filter((m) => m.content.startsWith('Thank you for waiting.'));
			expect(told).toHaveLength(1);
		}
		expect(rows.map((r) => `${r.lead_id} ${r.outcome} ${r.advisor}`).sort()).toEqual(
			missed.map((id) => `${id} passed_on ${leadNow(id).assigned_to}`).sort(),
		);
	});
});

test('server: no line n8n printed warns about or fails on the package', () => {
	expect(packageWarnings(folder)).toEqual([]);
});
