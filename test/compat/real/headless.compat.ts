import { join } from 'path';

import type { RunningSandbox, SandboxState } from '../../../sandbox';
import { chatModelCredential, headlessAgentWorkflow } from '../../../harness/real-n8n/chatModel';
import { examplesDir } from '../../../harness/real-n8n/paths';
import { writeWorkflowFiles } from '../../../harness/real-n8n/setup';
import {
	ADVISOR,
	ASSISTANT_QUESTION,
	errorOf,
	leadAssistantScript,
	MESSAGE_TO_LEAD,
	WRONG_STATUS,
} from '../../../harness/support/leadAssistantScript';
import {
	startScriptedChatModel,
	viewOf,
	type ScriptedChatModel,
} from '../../../harness/support/scriptedChatModel';
import {
	everyOperationWorkflow,
	example,
	execute,
	items,
	packageWarnings,
	prepareCompatFolder,
	type CompatFolder,
} from './support';

// The checks `n8n execute` runs headless, in the n8n line LC_N8N_INSTALL names (run.mjs sets
// it): every operation, and the examples that run without a trigger. Each check is one line of
// the table run.mjs prints.

const IDS = { action: 'LcCompatAction01', agent: 'LcCompatAgent001' };

let folder: CompatFolder;
let sandbox: RunningSandbox;
let model: ScriptedChatModel;

beforeAll(async () => {
	model = await startScriptedChatModel(leadAssistantScript);
	folder = await prepareCompatFolder(
		'compat-headless',
		() => [chatModelCredential(model.baseUrl)],
		(userFolder) => [
			join(examplesDir, 'stalled-conversation-nudge.json'),
			...writeWorkflowFiles(userFolder, [
				everyOperationWorkflow(IDS.action),
				headlessAgentWorkflow(example('ask-about-your-leads.json'), ASSISTANT_QUESTION, IDS.agent),
			]),
		],
	);
	sandbox = folder.sandbox;
}, 600_000);

afterAll(async () => {
	await model?.close();
	await folder?.sandbox.close();
});

describe('headless (n8n execute)', () => {
	it('every operation once: Lead, Conversation, Agent, Webhook Subscription', async () => {
		sandbox.control.clearRequests();
		const run = await execute(folder, IDS.action);
		const [created] = items(run, 'Create lead');
		expect(created).toMatchObject({ name: 'Marta Quiroga', status: 'new' });
		expect(items(run, 'Get lead')).toEqual([expect.objectContaining({ id: created.id })]);
		expect(items(run, 'Update lead')[0]).toMatchObject({
			id: created.id,
			assigned_to: 'user_e2e_advisor',
		});
		const conversations = items(run, 'Get open conversations');
		expect(conversations.length).toBeGreaterThan(0);
		expect(items(run, 'Get conversation')[0]).toHaveProperty('ai_summary');
		expect(items(run, 'Send message')[0]).toMatchObject({
			direction: 'outbound',
			sent_by: 'human',
		});
		const [agent] = items(run, 'Get agents');
		expect(items(run, 'Get agent')[0].id).toBe(agent.id);
		expect(items(run, 'Update agent')[0].configuration).toMatchObject({ tone: 'formal' });
		const [subscription] = items(run, 'Create subscription');
		expect(subscription.secret).toEqual(expect.any(String));
		expect(items(run, 'Get subscription')[0].id).toBe(subscription.id);
		expect(items(run, 'Delete subscription')).toHaveLength(1);
		expect(sandbox.control.webhooks()).toEqual([]);

		// Lead → Get Many with Return All: every lead of the organization once, page by page.
		const leads = items(run, 'Get all leads');
		const inOrganization = sandbox.control
			.state()
			.leads.filter((l) => l.organization_id === 'org_alpha' && l.id !== created.id);
		expect(leads.length).toBeGreaterThanOrEqual(inOrganization.length);
		expect(new Set(leads.map((l) => l.id)).size).toBe(leads.length);
		for (const lead of inOrganization) expect(leads.map((l) => l.id)).toContain(lead.id);
		const pages = sandbox.control
			.requests()
			.filter((r) => r.method === 'GET' && r.path === '/v1/leads');
		expect(pages.length).toBe(Math.ceil(leads.length / 100));
	});

	it('example stalled-conversation-nudge: a follow-up in each open conversation quiet 2+ days', async () => {
		const twoDaysAgo = Date.now() - 2 * 24 * 3600 * 1000;
		const stalled = sandbox.control
			.state()
			.conversations.filter(
				(c) =>
					c.organization_id === 'org_alpha' &&
					c.status === 'open' &&
					Date.parse(c.last_message_at) < twoDaysAgo,
			)
			.map((c) => c.id);
		expect(stalled.length).toBeGreaterThan(0);
		const run = await execute(folder, example('stalled-conversation-nudge.json').id);
		const sent = items(run, 'Send follow-up');
		expect(sent.map((m) => m.conversation_id).sort()).toEqual([...stalled].sort());
	});

	it('AI Agent tool (example ask-about-your-leads, scripted chat model): refused argument corrected, lead assigned, lead told', async () => {
		const before: SandboxState = sandbox.control.state();
		sandbox.control.clearRequests();
		const run = await execute(folder, IDS.agent, { failOnError: false });
		const offered = viewOf(model.requests[0])
			.tools.map((tool) => tool.name)
			.sort();
		expect(offered).toEqual([
			'Assign_lead',
			'Find_leads',
			'Find_open_conversations',
			'Send_message',
		]);
		const results = viewOf(model.requests[model.requests.length - 1]).allResults;
		const refused = results.find((result) => result.arguments.status === WRONG_STATUS);
		expect(errorOf(refused)).toContain('Nothing was sent to the service');

		const patch = sandbox.control.requests().find((r) => r.method === 'PATCH')!;
		const leadId = patch.path.split('/').pop()!;
		expect(before.leads.find((l) => l.id === leadId)).toMatchObject({
			status: 'qualified',
			assigned_to: null,
		});
		const after = sandbox.control.state();
		expect(after.leads.find((l) => l.id === leadId)).toMatchObject({
			assigned_to: ADVISOR,
			status: 'assigned',
		});
		const post = sandbox.control.requests().find((r) => r.method === 'POST')!;
		const conversation = after.conversations.find((c) => c.id === post.path.split('/')[3])!;
		expect(conversation.lead_id).toBe(leadId);
		expect(conversation.messages.at(-1)).toMatchObject({ content: MESSAGE_TO_LEAD });
		expect(items(run, 'Lead assistant')[0].output).toContain(`${leadId} is now with ${ADVISOR}`);
		expect(run.data.resultData.error?.message).toBeUndefined();
	});
});

test('headless: no line n8n printed warns about or fails on the package', () => {
	expect(packageWarnings(folder)).toEqual([]);
});
