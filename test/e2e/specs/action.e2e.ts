import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { n8nCli, parseRawOutput } from '../../../harness/real-n8n/n8n-cli';
import { e2eWorkflowsDir } from '../../../harness/real-n8n/paths';
import { importWorkflows, prepareUserFolder } from '../../../harness/real-n8n/setup';

// The action node inside a real n8n, run headless with `n8n execute` as a scheduled or CLI run
// would be: the package installed the way n8n installs community packages, the credential
// stored encrypted, real HTTP to the sandbox.

interface RunJson {
	status: string;
	data: {
		resultData: {
			runData: Record<string, Array<{ data?: { main: Array<Array<{ json: any }>> } }>>;
			error?: { message: string; description?: string; node?: { name: string }; httpCode?: string };
			lastNodeExecuted?: string;
		};
	};
}

let sandbox: RunningSandbox;
let userFolder: string;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 1717 });
	userFolder = await prepareUserFolder('action', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	await importWorkflows(userFolder, [
		join(e2eWorkflowsDir, 'action-every-operation.json'),
		join(e2eWorkflowsDir, 'action-missing-lead.json'),
	]);
}, 180_000);

afterAll(async () => {
	await sandbox?.close();
});

async function execute(
	workflowId: string,
): Promise<{ run: RunJson; stdout: string; code: number | null }> {
	const result = await n8nCli(userFolder, ['execute', `--id=${workflowId}`, '--rawOutput'], {
		allowFailure: true,
	});
	return {
		run: parseRawOutput(result.stdout) as RunJson,
		stdout: result.stdout + result.stderr,
		code: result.code,
	};
}

function items(run: RunJson, nodeName: string): any[] {
	const tasks = run.data.resultData.runData[nodeName];
	if (!tasks) throw new Error(`${nodeName} did not run`);
	return tasks[tasks.length - 1].data!.main[0].map((item) => item.json);
}

describe('Lead Conversations action node in n8n 2.41.1 (n8n execute)', () => {
	let run: RunJson;

	beforeAll(async () => {
		sandbox.control.clearRequests();
		const result = await execute('LcE2eActionAll01');
		run = result.run;
		if (run.data.resultData.error) throw new Error(JSON.stringify(run.data.resultData.error));
		expect(result.code).toBe(0);
	}, 120_000);

	it('Lead → Create, Get and Update work on one new lead', () => {
		const [created] = items(run, 'Create lead');
		expect(created).toMatchObject({
			name: 'Marta Quiroga',
			phone: '+5491155550123',
			email: 'marta.quiroga@example.com',
			channel: 'web_form',
			vehicle_interest: 'Toyota Hilux 2024',
			status: 'new',
			score: 0,
			assigned_to: null,
		});
		expect(created.id).toMatch(/^lead_/);
		expect(created).not.toHaveProperty('notes');

		expect(items(run, 'Get lead')).toEqual([expect.objectContaining({ id: created.id })]);
		expect(items(run, 'Update lead')).toEqual([
			expect.objectContaining({
				id: created.id,
				assigned_to: 'user_e2e_advisor',
				status: 'assigned',
			}),
		]);
		const stored = sandbox.control.state().leads.find((l) => l.id === created.id)!;
		expect(stored).toMatchObject({
			assigned_to: 'user_e2e_advisor',
			notes: 'Asked for a test drive on Saturday',
		});
	});

	it('Lead → Get Many with Return All reads every page and yields each lead once', () => {
		const leads = items(run, 'Get all leads');
		const inOrganization = sandbox.control
			.state()
			.leads.filter((l) => l.organization_id === 'org_alpha');
		expect(leads).toHaveLength(inOrganization.length);
		expect(new Set(leads.map((l) => l.id)).size).toBe(leads.length);

		const pages = sandbox.control
			.requests()
			.filter((r) => r.method === 'GET' && r.path === '/v1/leads');
		expect(pages.length).toBe(Math.ceil(inOrganization.length / 100));
		expect(pages[0].query.cursor).toBeUndefined();
		for (const page of pages.slice(1)) expect(page.query.cursor).toEqual(expect.any(String));
	});

	it('Conversation → Get Many, Get and Send Message', () => {
		const listed = items(run, 'Get open conversations');
		expect(listed).toHaveLength(3);
		for (const conversation of listed) expect(conversation.status).toBe('open');

		const fetched = items(run, 'Get conversation');
		expect(fetched.map((c) => c.id)).toEqual(listed.map((c) => c.id));
		expect(fetched[0]).toHaveProperty('ai_summary');

		const [message] = items(run, 'Send message');
		expect(message).toMatchObject({
			conversation_id: listed[0].id,
			direction: 'outbound',
			sent_by: 'human',
			type: 'text',
			content: 'Hello from the dealership: an advisor will call you today.',
		});
		expect(sandbox.control.state().pausedConversations).toContain(listed[0].id);
	});

	it('Agent → Get Many, Get and Update', () => {
		const listed = items(run, 'Get agents');
		expect(listed.length).toBeGreaterThan(0);
		expect(listed.length).toBeLessThanOrEqual(5);
		expect(items(run, 'Get agent')).toEqual([expect.objectContaining({ id: listed[0].id })]);
		const [updated] = items(run, 'Update agent');
		expect(updated.id).toBe(listed[0].id);
		expect(updated.configuration).toMatchObject({
			tone: 'formal',
			follow_up_cadence: { max_follow_ups: 4 },
		});
	});
});

describe('a failing call, as a user sees it in n8n', () => {
	it('Lead → Get of a lead that does not exist fails with the status and the service’s message', async () => {
		const { run, stdout, code } = await execute('LcE2eLead404001');

		expect(code).not.toBe(0);
		const error = run.data.resultData.error!;
		expect(error).toBeDefined();
		expect(error.node?.name ?? run.data.resultData.lastNodeExecuted).toBe('Get lead');
		// What n8n shows on the failed node: the headline and, below it, the details.
		expect(error.message).toContain('lead_doesnotexist not found');
		expect(error.description).toContain('HTTP 404 lead_not_found');
		expect(stdout).not.toContain(sandbox.keys.full);
	});
});
