// What both compatibility specs share: one user folder per spec with the packed package installed
// the way n8n installs community packages, its credentials and workflows imported in one CLI
// command each (each command boots most of n8n), `n8n execute`, and everything n8n printed, for
// the check that nothing warns about the package.

import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import {
	installCommunityPackage,
	makeUserFolder,
} from '../../../harness/real-n8n/community-package';
import { n8nCli, parseRawOutput } from '../../../harness/real-n8n/n8n-cli';
import { e2eWorkflowsDir, examplesDir, packageName } from '../../../harness/real-n8n/paths';
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	importWorkflows,
	packedTarball,
	writeCredentialsFile,
} from '../../../harness/real-n8n/setup';

export const SEED = 1717;

export type Workflow = {
	id: string;
	name: string;
	nodes: any[];
	connections: any;
	[key: string]: any;
};
export const readWorkflow = (path: string): Workflow => JSON.parse(readFileSync(path, 'utf8'));
export const example = (file: string) => readWorkflow(join(examplesDir, file));

/** The JSON of each item a node output in its last run. */
export const items = (run: any, node: string): any[] =>
	(run.data.resultData.runData[node]?.at(-1)?.data?.main?.[0] ?? []).map((i: any) => i.json);

export interface CompatFolder {
	sandbox: RunningSandbox;
	userFolder: string;
	/** What n8n printed so far: log lines only, not the JSON of runs. */
	printed: string[];
}

/** A sandbox and a user folder with the package, `credentials` and `workflows` (files) in it. */
export async function prepareCompatFolder(
	label: string,
	credentials: (sandbox: RunningSandbox) => Promise<object[]> | object[],
	workflows: (userFolder: string) => string[],
): Promise<CompatFolder> {
	const sandbox = await startSandbox({ port: 0, seed: SEED });
	const userFolder = makeUserFolder(label);
	await installCommunityPackage(userFolder, packedTarball());
	const file = writeCredentialsFile(
		userFolder,
		{ baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full },
		await credentials(sandbox),
	);
	const printed = [(await n8nCli(userFolder, ['import:credentials', `--input=${file}`])).stdout];
	await importWorkflows(userFolder, workflows(userFolder));
	return { sandbox, userFolder, printed };
}

/** `n8n execute` of an imported workflow; a run that ended in an error throws it unless asked not to. */
export async function execute(
	folder: CompatFolder,
	workflowId: string,
	{ failOnError = true } = {},
): Promise<any> {
	const result = await n8nCli(folder.userFolder, ['execute', `--id=${workflowId}`, '--rawOutput'], {
		allowFailure: true,
	});
	const run = parseRawOutput(result.stdout) as any;
	// The run's JSON (indented lines between a `{` and a `}`) is data, not n8n's log.
	folder.printed.push(result.stdout.replace(/^[{}\s].*$/gm, ''), result.stderr);
	if (failOnError && run.data.resultData.error) {
		throw new Error(JSON.stringify(run.data.resultData.error));
	}
	if (failOnError) expect(result.code).toBe(0);
	return run;
}

/** The lines n8n printed that name the package and warn or fail (kept in the user folder). */
export function packageWarnings(folder: CompatFolder): string[] {
	const lines = folder.printed
		.join('\n')
		.split('\n')
		.filter((line) => /lead-?conversations/i.test(line) && /warn|error|fail|deprecat/i.test(line));
	writeFileSync(join(folder.userFolder, 'package-lines.txt'), lines.join('\n'));
	return lines;
}

/** Every operation of the action node in one workflow: the e2e workflow plus Webhook Subscription. */
export function everyOperationWorkflow(id: string): Workflow {
	const workflow = readWorkflow(join(e2eWorkflowsDir, 'action-every-operation.json'));
	const credentials = { leadConversationsApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };
	const step = (name: string, operation: string, parameters: object, x: number) => ({
		id: `0b0e6a52-0000-4000-8000-0000000001${x}`,
		name,
		type: `${packageName}.leadConversations`,
		typeVersion: 1,
		position: [x * 10, 600],
		parameters: { resource: 'webhookSubscription', operation, ...parameters },
		credentials,
	});
	workflow.nodes.push(
		// A loopback address nothing listens on, and an event nothing here sends.
		step(
			'Create subscription',
			'create',
			{ url: 'https://localhost:9/hook', events: ['appointment.booked'] },
			30,
		),
		step('Get subscription', 'get', { subscriptionId: '={{ $json.id }}' }, 50),
		step('Delete subscription', 'delete', { subscriptionId: '={{ $json.id }}' }, 70),
	);
	const to = (node: string) => [[{ node, type: 'main', index: 0 }]];
	workflow.connections.Run.main[0].push({ node: 'Create subscription', type: 'main', index: 0 });
	workflow.connections['Create subscription'] = { main: to('Get subscription') };
	workflow.connections['Get subscription'] = { main: to('Delete subscription') };
	return { ...workflow, id, name: 'Compat: every operation' };
}
