import { readFileSync } from 'fs';
import { join } from 'path';

import { startSandbox, type RunningSandbox, type SandboxState } from '../../../sandbox';
import {
	ADVISOR,
	ASSISTANT_QUESTION,
	MESSAGE_TO_LEAD,
	UNASKED_ARGUMENTS,
	WRONG_STATUS,
	errorOf,
	leadAssistantScript,
} from '../../../harness/support/leadAssistantScript';
import {
	startScriptedChatModel,
	viewOf,
	type ScriptedChatModel,
	type ToolResult,
} from '../../../harness/support/scriptedChatModel';
import {
	headlessAgentWorkflow,
	importChatModelCredential,
} from '../../../harness/real-n8n/chatModel';
import { waitForTriggerStatus } from '../../../harness/real-n8n/executions';
import { httpCall } from '../../../harness/real-n8n/http';
import { n8nCli, parseRawOutput } from '../../../harness/real-n8n/n8n-cli';
import { type N8nServer, startN8nWithApi } from '../../../harness/real-n8n/n8n-server';
import { examplesDir } from '../../../harness/real-n8n/paths';
import {
	importWorkflows,
	prepareUserFolder,
	writeWorkflowFiles,
} from '../../../harness/real-n8n/setup';
import { COMPACT_LEAD_FIELDS } from '../../../nodes/LeadConversations/actions/tool.descriptions';

// The action node as tools of n8n's AI Agent in real n8n 2.41.1: the example "ask about your
// leads" assistant, its chat model pointed at a scripted OpenAI-compatible server on loopback.
// Run once headless (`n8n execute`, its Chat Trigger swapped for a Manual Trigger) and once as
// published, through its chat webhook.

const SEED = 1717;
const EXAMPLE_FILE = 'ask-about-your-leads.json';

interface WorkflowJson {
	id: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, any>; webhookId?: string }>;
	connections: Record<string, any>;
	[key: string]: unknown;
}

let sandbox: RunningSandbox;
let model: ScriptedChatModel;
let userFolder: string;
const example = JSON.parse(readFileSync(join(examplesDir, EXAMPLE_FILE), 'utf8')) as WorkflowJson;

/** The example with a Manual Trigger start and the question written into the agent. */
const headlessVariant = (): WorkflowJson =>
	headlessAgentWorkflow(example, ASSISTANT_QUESTION, 'LcE2eAgentTools01') as WorkflowJson;

/** The leads the question is about, computed from the sandbox the way the service lists them. */
function expectedCandidates(state: SandboxState) {
	return state.leads.filter(
		(lead) =>
			lead.organization_id === 'org_alpha' &&
			lead.status === 'qualified' &&
			lead.channel === 'marketplace',
	);
}

/** What the scripted model said, turn by turn, printed so a run shows the conversation. */
function printTranscript(label: string): void {
	const lines = model.replies.map((reply, turn) =>
		'text' in reply
			? `  ${turn}: "${reply.text}"`
			: `  ${turn}: ${reply.toolCalls.map((call) => `${call.name}(${JSON.stringify(call.arguments)})`).join(', ')}`,
	);
	process.stdout.write(`\n[agent] ${label}\n${lines.join('\n')}\n`);
}

function allToolResults(): ToolResult[] {
	return viewOf(model.requests[model.requests.length - 1]).allResults;
}

function without<T extends Record<string, any>>(record: T, fields: string[]): Partial<T> {
	const copy: Record<string, any> = { ...record };
	for (const field of fields) delete copy[field];
	return copy as Partial<T>;
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: SEED });
	model = await startScriptedChatModel(leadAssistantScript);
	userFolder = await prepareUserFolder('agent-tool', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	await importChatModelCredential(userFolder, model.baseUrl);
	await importWorkflows(userFolder, [
		join(examplesDir, EXAMPLE_FILE),
		...writeWorkflowFiles(userFolder, [headlessVariant()]),
	]);
}, 180_000);

afterAll(async () => {
	await model?.close();
	await sandbox?.close();
});

describe('AI Agent with the package as tools, run headless (n8n execute)', () => {
	let before: SandboxState;
	let after: SandboxState;
	let run: any;

	beforeAll(async () => {
		sandbox.control.clearRequests();
		before = sandbox.control.state();
		const result = await n8nCli(userFolder, ['execute', '--id=LcE2eAgentTools01', '--rawOutput'], {
			allowFailure: true,
		});
		run = parseRawOutput(result.stdout);
		after = sandbox.control.state();
		printTranscript('headless run, scripted model turns');
		if (run.data.resultData.error) throw new Error(JSON.stringify(run.data.resultData.error));
		expect(result.code).toBe(0);
	}, 150_000);

	it('the model is offered each tool with a description and parameters it can act on', () => {
		const offered = viewOf(model.requests[0]).tools;
		expect(offered.map((tool) => tool.name).sort()).toEqual(
			['Assign_lead', 'Find_leads', 'Find_open_conversations', 'Send_message'].sort(),
		);
		const findLeads = offered.find((tool) => tool.name === 'Find_leads')!;
		expect(findLeads.description).toContain('Returns at most Limit leads (10 unless');
		expect(findLeads.description).toContain('qualified');
		expect(findLeads.description).toContain('assigned_to null means no advisor yet');
		expect(Object.keys(findLeads.parameters.properties ?? {}).sort()).toEqual([
			'channel',
			'status',
		]);
		expect(findLeads.parameters.properties!.status.description).toContain(
			'one of new, in_conversation',
		);
		const assign = offered.find((tool) => tool.name === 'Assign_lead')!;
		// Only what the workflow left to the model is a parameter: the status is fixed by the user.
		expect(Object.keys(assign.parameters.properties ?? {}).sort()).toEqual([
			'advisor_id',
			'lead_id',
		]);
	});

	it('an unknown status comes back to the model as a readable error, and nothing was sent', () => {
		const [refused] = allToolResults().filter((result) => result.arguments.status === WRONG_STATUS);
		expect(errorOf(refused)).toContain(
			`Status must be one of new, in_conversation, qualified, assigned, closed, lost (got "${WRONG_STATUS}")`,
		);
		expect(errorOf(refused)).toContain('Nothing was sent to the service');
		const sentStatuses = sandbox.control
			.requests()
			.filter((request) => request.path === '/v1/leads')
			.map((request) => request.query.status);
		expect(sentStatuses).toEqual(['qualified']);
	});

	it('the retried call reaches the service with the arguments the model chose, and the model receives the records', () => {
		const [listCall] = sandbox.control.requests().filter((request) => request.path === '/v1/leads');
		expect(listCall).toMatchObject({ method: 'GET', status: 200 });
		expect(listCall.query).toEqual({ status: 'qualified', channel: 'marketplace', limit: '10' });

		const [listed] = allToolResults().filter(
			(result) => result.name === 'Find_leads' && result.arguments.status === 'qualified',
		);
		const leads = listed.json as Array<Record<string, unknown>>;
		const expected = expectedCandidates(before);
		expect(leads).toHaveLength(Math.min(10, expected.length));
		const expectedIds = expected.map((lead) => lead.id);
		for (const lead of leads) expect(expectedIds).toContain(lead.id);
		for (const lead of leads) expect(Object.keys(lead)).toEqual([...COMPACT_LEAD_FIELDS]);
		expect(listed.text).not.toContain('"phone"');
	});

	it('only the fields the workflow configured changed: the advisor and the fixed status', () => {
		const patches = sandbox.control.requests().filter((request) => request.method === 'PATCH');
		expect(patches).toHaveLength(1);
		const leadId = patches[0].path.split('/').pop()!;
		const was = before.leads.find((lead) => lead.id === leadId)!;
		const now = after.leads.find((lead) => lead.id === leadId)!;
		expect(was.assigned_to).toBeNull();
		expect(now).toMatchObject({ assigned_to: ADVISOR, status: 'assigned', notes: was.notes });
		expect(now.notes).not.toBe(UNASKED_ARGUMENTS.notes);
		const moving = ['assigned_to', 'status', 'updated_at', 'last_activity_at'];
		expect(without(now, moving)).toEqual(without(was, moving));
		// Every other lead and every agent is as it was.
		expect(after.leads.filter((lead) => lead.id !== leadId)).toEqual(
			before.leads.filter((lead) => lead.id !== leadId),
		);
		expect(after.agents).toEqual(before.agents);
	});

	it('the message went into the open conversation of that lead, and the answer names both', () => {
		const posts = sandbox.control.requests().filter((request) => request.method === 'POST');
		expect(posts).toHaveLength(1);
		const conversationId = posts[0].path.split('/')[3];
		const conversation = after.conversations.find((c) => c.id === conversationId)!;
		const leadId = sandbox.control
			.requests()
			.find((r) => r.method === 'PATCH')!
			.path.split('/')
			.pop();
		expect(conversation.lead_id).toBe(leadId);
		expect(conversation.messages.at(-1)).toMatchObject({
			content: MESSAGE_TO_LEAD,
			sent_by: 'human',
		});
		expect(after.pausedConversations).toContain(conversationId);
		expect(after.conversations.filter((c) => c.id !== conversationId)).toEqual(
			before.conversations.filter((c) => c.id !== conversationId),
		);

		const answer = run.data.resultData.runData['Lead assistant'].at(-1).data.main[0][0].json.output;
		expect(answer).toContain(`${leadId} is now with ${ADVISOR}`);
		expect(answer).toContain(conversationId);
	});
});

describe('example "ask about your leads", published and asked through its chat', () => {
	let n8n: N8nServer;

	beforeAll(async () => {
		sandbox.control.reset({ seed: SEED });
		model.requests.length = 0;
		model.replies.length = 0;
		const started = await startN8nWithApi({ userFolder });
		n8n = started.n8n;
		const { api } = started;
		expect((await api.request('POST', `/workflows/${example.id}/activate`)).status).toBe(200);
		expect((await waitForTriggerStatus(userFolder, example.id))[0].status).toBe('activated');
	}, 180_000);

	afterAll(async () => {
		await n8n?.stop();
	});

	it('answers the question from the tools and assigns the lead', async () => {
		const before = sandbox.control.state();
		const chat = example.nodes.find((node) => node.type.endsWith('.chatTrigger'))!;
		const response = await httpCall('POST', `${n8n.webhookUrl}webhook/${chat.webhookId}/chat`, {
			body: { action: 'sendMessage', sessionId: 'e2e-session', chatInput: ASSISTANT_QUESTION },
			timeoutMs: 90_000,
		});
		printTranscript('chat webhook, scripted model turns');
		expect(response.status).toBe(200);
		const patch = sandbox.control.requests().find((request) => request.method === 'PATCH')!;
		const leadId = patch.path.split('/').pop()!;
		expect(response.json.output).toContain(`${leadId} is now with ${ADVISOR}`);
		expect(expectedCandidates(before).map((lead) => lead.id)).toContain(leadId);
		expect(sandbox.control.state().leads.find((lead) => lead.id === leadId)).toMatchObject({
			assigned_to: ADVISOR,
			status: 'assigned',
		});
		// The chat's own text reached the model as the user's question.
		expect(viewOf(model.requests[0]).userText).toBe(ASSISTANT_QUESTION);
	}, 120_000);
});
