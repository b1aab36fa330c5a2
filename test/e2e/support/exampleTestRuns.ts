// Execute workflow on every example in the real editor (scripts/e2e/example-test-runs.mjs), and
// what the service saw meanwhile: its request log within each run's time window.

import { readdirSync } from 'fs';
import { join } from 'path';

import { E2E_OWNER, type N8nServer } from '../../../harness/real-n8n/n8n-server';
import { repoRoot } from '../../../harness/real-n8n/paths';
import { runCommand, tail } from '../../../harness/real-n8n/processes';
import type { RequestLogEntry, RunningSandbox } from '../../../sandbox/contract';
import { moveIntoOpenHours } from '../../../harness/support/showroomHours';

export interface ExampleRun {
	file: string;
	pinned: boolean;
	attempt: number;
	startedAt: number;
	endedAt: number;
	stopped: boolean;
	status: string;
	error?: string;
	lastNode?: string;
	ran: string[];
	/** Per node that ran: its output items' lead_id or id. */
	outputs?: Record<string, Array<string | null>>;
}

export const EXAMPLE_FILES = readdirSync(join(repoRoot, 'examples'))
	.filter((file) => file.endsWith('.json'))
	.sort();

export async function runExamplesInEditor(server: N8nServer, outDir: string) {
	const result = await runCommand(
		process.execPath,
		[
			join(repoRoot, 'scripts', 'e2e', 'example-test-runs.mjs'),
			...['--url', server.url, '--out-dir', outDir, '--examples', EXAMPLE_FILES.join(',')],
			...['--email', E2E_OWNER.email, '--password', E2E_OWNER.password],
		],
		{ cwd: repoRoot, timeoutMs: 900_000, env: process.env },
	);
	if (result.code !== 0) {
		throw new Error(`example-test-runs failed:\n${tail(result.stdout)}\n${tail(result.stderr)}`);
	}
	return (JSON.parse(result.stdout.trim().split('\n').pop()!) as { runs: ExampleRun[] }).runs;
}

/** The service's requests that arrived during a run. */
export function requestsOf(sandbox: RunningSandbox, run: ExampleRun): RequestLogEntry[] {
	return sandbox.control
		.requests()
		.filter((request) => request.at >= run.startedAt && request.at <= run.endedAt + 1_000);
}

/**
 * Writes that change leads or conversations: a lead's PATCH, a message, a status change. The
 * webhook trigger's own test subscription (created and deleted around a test run) is not one.
 */
export function writesOf(requests: RequestLogEntry[]): string[] {
	return requests
		.filter((request) => request.method !== 'GET' && !request.path.includes('/webhooks'))
		.map((request) => `${request.method} ${request.path}`);
}

/**
 * Two more assigned leads for the unpinned re-routing run: one that waited 16 minutes with no
 * message (the newest wait that ended), one assigned seconds before the run.
 */
export async function assignedLeadsScenario(sandbox: RunningSandbox) {
	const send = async (path: string, body: object) => {
		const response = await fetch(`${sandbox.baseUrl}${path}`, {
			method: 'PATCH',
			headers: { 'X-API-Key': sandbox.keys.full, 'Content-Type': 'application/json' },
			body: JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`PATCH ${path}: ${response.status}`);
	};
	const leads = sandbox.control.state().leads.filter((l) => l.organization_id === 'org_alpha');
	const [waited, fresh] = leads.filter((l) => ['new', 'qualified'].includes(l.status));
	// The example counts its wait in opening hours: the 16 minutes must be open ones.
	moveIntoOpenHours(sandbox.control);
	await send(`/leads/${waited.id}`, { status: 'assigned', assigned_to: 'user_ana_lopez' });
	sandbox.control.advanceClock(16 * 60_000);
	await send(`/leads/${fresh.id}`, { status: 'assigned', assigned_to: 'user_bruno_diaz' });
	return { waited: waited.id, fresh: fresh.id };
}

/** Open conversations quiet for more than 2 days: the only ones the nudge example may write to. */
export function stalledConversations(sandbox: RunningSandbox): string[] {
	const twoDaysAgo = Date.now() - 2 * 24 * 3600_000;
	return sandbox.control
		.state()
		.conversations.filter(
			(c) =>
				c.organization_id === 'org_alpha' &&
				c.status === 'open' &&
				Date.parse(c.last_message_at) < twoDaysAgo,
		)
		.map((c) => c.id);
}
