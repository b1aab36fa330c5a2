// `npm run demo`: runs the three example workflows of examples/ once through n8n's engine
// (n8n-core's WorkflowExecute, webhook and hook contexts) against a freshly started sandbox
// service, and tells in plain words what happened. The n8n built-in nodes they use (Schedule
// Trigger, Edit Fields, Filter, Convert to File) are n8n-nodes-base's own. No n8n install, no
// account, loopback only.

import './demo/userFolder';

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';

import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { startSandbox, type RunningSandbox } from '../sandbox';
import {
	createTriggerHarness,
	runWorkflow,
	startWebhookReceiver,
	type HarnessCredentials,
	type RunResult,
	type WorkflowSpec,
} from '../harness/engine';

const repoRoot = resolve(__dirname, '..');
const examplesDir = join(repoRoot, 'examples');
const outputDir = join(repoRoot, 'demo-output');

interface ExampleWorkflow extends WorkflowSpec {
	name: string;
	nodes: Array<WorkflowSpec['nodes'][number] & { webhookId?: string }>;
}

function loadExample(file: string): ExampleWorkflow {
	return JSON.parse(readFileSync(join(examplesDir, file), 'utf8')) as ExampleWorkflow;
}

function say(line = ''): void {
	process.stdout.write(`${line}\n`);
}

function checkRun(result: RunResult, what: string): void {
	if (result.status !== 'success') {
		throw new Error(`${what} failed: ${result.error?.message ?? result.status}`);
	}
}

function leadName(sandbox: RunningSandbox, leadId: string): string {
	return sandbox.control.state().leads.find((lead) => lead.id === leadId)?.name ?? leadId;
}

// 1. Leads → spreadsheet ---------------------------------------------------------------------

async function leadsToSpreadsheet(sandbox: RunningSandbox, credentials: HarnessCredentials) {
	const workflow = loadExample('leads-to-spreadsheet.json');
	say(`1. ${workflow.name}`);

	let runNumber = 0;
	const runOnce = async (staticData: IDataObject, label: string) => {
		runNumber++;
		const result = await runWorkflow({ ...workflow, staticData }, credentials, {
			startNode: 'Every hour',
			mode: 'trigger',
		});
		checkRun(result, 'Leads → spreadsheet');
		const leads = result.output('New leads since last run');
		const [file] = result.output('Spreadsheet file');
		if (!file) {
			say(`   ${label}: no new leads, so no file.`);
			return result.staticData;
		}
		const binary = file.binary!.data as IBinaryData;
		const saved = join(outputDir, `run-${runNumber}`, binary.fileName!);
		mkdirSync(join(outputDir, `run-${runNumber}`), { recursive: true });
		writeFileSync(saved, Buffer.from(binary.data, 'base64'));
		const names = leads.slice(0, 3).map((item) => String(item.json.name));
		const more = leads.length > 3 ? ` and ${leads.length - 3} more` : '';
		say(
			`   ${label}: ${leads.length} lead(s) went into ${binary.fileName} ` +
				`(${names.join(', ')}${more}); saved as ${saved.replace(`${repoRoot}/`, '')}`,
		);
		return result.staticData;
	};

	const afterFirst = await runOnce({}, 'first run');
	const arrivals = [
		{ name: 'Valentina Ríos', channel: 'chat_app', vehicle_interest: 'Volkswagen Amarok' },
		{ name: 'Tomás Herrera', channel: 'marketplace', vehicle_interest: 'Ford Ranger XLT' },
		{ name: 'Camila Duarte', channel: 'web_form', vehicle_interest: null },
	];
	for (const lead of arrivals) sandbox.control.createChannelLead(lead);
	say(`   … meanwhile ${arrivals.length} leads arrive from the channels …`);
	const afterSecond = await runOnce(afterFirst, 'second run');
	await runOnce(afterSecond, 'third run');
}

// 2. Qualified → auto-assign ---------------------------------------------------------------

/**
 * The example reads its roster with n8n's Data Table node, whose tables live in an n8n instance's
 * database; the engine here has none. So the demo pins the rows that node would output, as n8n's
 * editor pins a node's output, and says so.
 */
export const DEMO_ROSTER = [
	{ id: 1, user_id: 'user_ana_lopez', weight: 1, away: false },
	{ id: 2, user_id: 'user_bruno_diaz', weight: 1, away: false },
	{ id: 3, user_id: 'user_carla_ruiz', weight: 1, away: false },
];

async function qualifiedToAdvisor(sandbox: RunningSandbox, credentials: HarnessCredentials) {
	const workflow = loadExample('qualified-lead-round-robin.json');
	workflow.pinData = { Roster: DEMO_ROSTER.map((row) => ({ json: row })) };
	const triggerNode = workflow.nodes.find((node) =>
		node.type.endsWith('.leadConversationsTrigger'),
	)!;
	say(`2. ${workflow.name}`);
	say(
		`   Roster: ${DEMO_ROSTER.map((row) => row.user_id).join(', ')}, pinned on the Roster node ` +
			'(in n8n it is read from the Data Table "Advisors roster"; this engine has no Data Tables).',
	);

	let pendingRun: Promise<RunResult> | undefined;
	// n8n's webhook endpoint on a local HTTPS address: the service delivers only to https:// URLs.
	const receiver = await startWebhookReceiver({
		onDelivery: ({ result }) => {
			const items = result?.runs[0];
			if (!items?.length) return;
			// n8n answers the service first, then runs the workflow from the trigger's items.
			pendingRun = runWorkflow(workflow, credentials, {
				startNode: triggerNode.name,
				inputItems: items.map((item: INodeExecutionData) => item.json),
				mode: 'webhook',
			});
		},
	});

	try {
		const trigger = createTriggerHarness(triggerNode.parameters ?? {}, credentials, {
			webhookBaseUrl: `https://localhost:${receiver.port}/`,
			webhookId: triggerNode.webhookId,
			nodeName: triggerNode.name,
			workflowName: workflow.name,
		});
		receiver.attach(trigger);
		await trigger.activate();
		const [subscription] = sandbox.control.webhooks();
		say(
			`   Activated: the service now sends ${subscription.events.join(', ')} to ${subscription.url}`,
		);

		const state = sandbox.control.state();
		const withOpenConversation = new Set(
			state.conversations.filter((c) => c.status === 'open').map((c) => c.lead_id),
		);
		const candidates = state.leads.filter(
			(lead) =>
				lead.organization_id === 'org_alpha' &&
				(lead.status === 'new' || lead.status === 'in_conversation') &&
				withOpenConversation.has(lead.id),
		);
		const scores = [88, 74, 91, 62, 79];
		if (candidates.length < scores.length)
			throw new Error('The sandbox has too few leads in conversation');
		for (const [index, score] of scores.entries()) {
			const lead = candidates[index];
			pendingRun = undefined;
			sandbox.control.qualifyLead(lead.id, score);
			await sandbox.control.whenDeliveriesSettled();
			const run = pendingRun as Promise<RunResult> | undefined;
			if (!run) {
				say(
					`   ${lead.name} (score ${score}) qualified: no run, the trigger only starts for 70 or more.`,
				);
				continue;
			}
			const result = await run;
			checkRun(result, 'Qualified → auto-assign');
			const [assigned] = result.output('Assign the advisor');
			const { advisor, leftAsItWas } = assigned.json.assignment as IDataObject;
			if (leftAsItWas) {
				say(
					`   ${lead.name} (score ${score}) qualified, but already had ${String(advisor)}: kept, and not messaged again.`,
				);
				continue;
			}
			const [message] = result.output('Tell the lead');
			const told = message
				? `and got "${String(message.json.content)}" in conversation ${String(message.json.conversation_id)}`
				: 'but has no open conversation to tell';
			say(`   ${lead.name} (score ${score}) qualified → assigned to ${String(advisor)}, ${told}.`);
		}

		await trigger.deactivate();
		say(
			`   Deactivated: ${sandbox.control.webhooks().length} subscription(s) left in the service.`,
		);
	} finally {
		await receiver.close();
	}
}

// 3. Stalled conversations nudge -----------------------------------------------------------

async function stalledConversations(sandbox: RunningSandbox, credentials: HarnessCredentials) {
	const workflow = loadExample('stalled-conversation-nudge.json');
	say(`3. ${workflow.name}`);

	// Two conversations had news today, so they are not stalled.
	const open = sandbox.control
		.state()
		.conversations.filter((c) => c.organization_id === 'org_alpha' && c.status === 'open');
	for (const conversation of open.slice(0, 2)) {
		sandbox.control.reachMilestone(conversation.id, 'budget_identified');
	}

	const result = await runWorkflow(workflow, credentials, {
		startNode: 'Every day at 9',
		mode: 'trigger',
	});
	checkRun(result, 'Stalled conversations nudge');
	const listed = result.output('Open conversations');
	const stalled = result.output('Quiet for 2+ days');
	const sent = result.output('Send follow-up');
	say(
		`   ${listed.length} open conversation(s); ${listed.length - stalled.length} had a message in the last 2 days; ` +
			`${sent.length} stalled one(s) got a follow-up:`,
	);
	for (const item of stalled.slice(0, 5)) {
		const since = String(item.json.last_message_at).slice(0, 10);
		say(
			`   - ${String(item.json.id)} with ${leadName(sandbox, String(item.json.lead_id))} (${String(item.json.channel)}, quiet since ${since})`,
		);
	}
	if (stalled.length > 5) say(`   - and ${stalled.length - 5} more`);
	if (sent[0]) say(`   The follow-up reads: "${String(sent[0].json.content)}"`);
}

async function main(): Promise<void> {
	const started = Date.now();
	rmSync(outputDir, { recursive: true, force: true });
	const sandbox = await startSandbox({ port: 0, leads: 24, seed: 20261121 });
	const credentials: HarnessCredentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
	say(
		`Sandbox service on ${sandbox.baseUrl} with ${sandbox.control.state().leads.filter((l) => l.organization_id === 'org_alpha').length} leads.`,
	);
	say();
	try {
		await leadsToSpreadsheet(sandbox, credentials);
		say();
		await qualifiedToAdvisor(sandbox, credentials);
		say();
		await stalledConversations(sandbox, credentials);
	} finally {
		await sandbox.close();
	}
	say();
	say(
		`Done in ${((Date.now() - started) / 1000).toFixed(1)} s. The workflows are in examples/; import them into n8n.`,
	);
}

main().catch((error: Error) => {
	process.stderr.write(`Demo failed: ${error.stack ?? error.message}\n`);
	process.exit(1);
});
