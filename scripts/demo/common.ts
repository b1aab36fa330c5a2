// What every step of `npm run demo` shares: the example workflows as shipped, the sandbox
// service they run against, and one way to print a line.

import { readFileSync } from 'fs';
import { join, resolve } from 'path';

import type { RunningSandbox } from '../../sandbox';
import type {
	HarnessCredentials,
	InMemoryDataTables,
	RunResult,
	WorkflowSpec,
} from '../../harness/engine';

export const repoRoot = resolve(__dirname, '..', '..');
export const examplesDir = join(repoRoot, 'examples');
/** Files the demo writes (the synced sheet); emptied at every start. */
export const outputDir = join(repoRoot, 'demo-output');

/** The service the steps run against, the credential n8n would hold for it, n8n's Data Tables. */
export interface DemoService {
	sandbox: RunningSandbox;
	credentials: HarnessCredentials;
	/** n8n keeps its Data Tables in its database; the engine here keeps them in memory. */
	dataTables: InMemoryDataTables;
}

/** The advisors of the examples' Data Table "Advisors roster", all available, equal weights. */
export const DEMO_ADVISORS = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz'];

export interface ExampleWorkflow extends WorkflowSpec {
	name: string;
	nodes: Array<WorkflowSpec['nodes'][number] & { webhookId?: string }>;
}

export function loadExample(file: string): ExampleWorkflow {
	return JSON.parse(readFileSync(join(examplesDir, file), 'utf8')) as ExampleWorkflow;
}

/** The demo prints through this, so a test can run a step and keep its lines. */
export type Say = (line?: string) => void;

export const sayToStdout: Say = (line = '') => {
	process.stdout.write(`${line}\n`);
};

/** Text broken into lines of at most `width` characters, for quoting a message. */
export function wrap(text: string, width = 76): string[] {
	const lines: string[] = [];
	let line = '';
	for (const word of text.split(/\s+/)) {
		if (line && line.length + 1 + word.length > width) {
			lines.push(line);
			line = word;
		} else line = line ? `${line} ${word}` : word;
	}
	if (line) lines.push(line);
	return lines;
}

export function checkRun(result: RunResult, what: string): void {
	if (result.status !== 'success') {
		throw new Error(`${what} failed: ${result.error?.message ?? result.status}`);
	}
}

export function leadName(sandbox: RunningSandbox, leadId: string): string {
	return sandbox.control.state().leads.find((lead) => lead.id === leadId)?.name ?? leadId;
}

/** Leads of the demo's organization (the sandbox also holds another one's). */
export function ownLeads(sandbox: RunningSandbox) {
	return sandbox.control.state().leads.filter((lead) => lead.organization_id === 'org_alpha');
}
