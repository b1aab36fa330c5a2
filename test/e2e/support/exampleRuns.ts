// Running the workflows of examples/: headless in real n8n (`n8n execute`) and through the
// in-process engine `npm run demo` uses, on a twin sandbox with the same seed.

import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { runWorkflow, type WorkflowSpec } from '../../../harness/engine';
import { executeWorkflow } from '../../../harness/real-n8n/n8n-cli';
import { examplesDir } from '../../../harness/real-n8n/paths';

export interface RunJson {
	data: { resultData: { runData: Record<string, any[]>; error?: { message: string } } };
}

/** The sandbox every example runs against, in real n8n and in the demo engine alike. */
export const EXAMPLE_SANDBOX = { leads: 24, seed: 20261121 };

export function example(file: string): WorkflowSpec & { id: string } {
	return JSON.parse(readFileSync(join(examplesDir, file), 'utf8'));
}

/** `n8n execute` of an imported workflow; a run that ended in an error throws it. */
export async function execute(userFolder: string, workflowId: string): Promise<RunJson> {
	const run = (await executeWorkflow(userFolder, workflowId)) as RunJson;
	if (run.data.resultData.error) throw new Error(run.data.resultData.error.message);
	return run;
}

/** The items of a node's last run; none when it did not run. */
export function output(run: RunJson, nodeName: string): Array<{ json: any; binary?: any }> {
	const tasks = run.data.resultData.runData[nodeName];
	return tasks ? tasks[tasks.length - 1].data.main[0] : [];
}

/** The bytes of a file n8n keeps in its binary data storage (filesystem mode, n8n's default). */
export function storedFile(userFolder: string, binary: { id?: string; data: string }): Buffer {
	if (!binary.id) return Buffer.from(binary.data, 'base64');
	const name = binary.id.split('/').pop()!;
	const found: string[] = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir)) {
			const path = join(dir, entry);
			if (statSync(path).isDirectory()) walk(path);
			else if (entry === name) found.push(path);
		}
	};
	walk(join(userFolder, '.n8n'));
	if (found.length !== 1) throw new Error(`Cannot find the stored file of ${binary.id}`);
	return readFileSync(found[0]);
}

/** The same workflow through the engine `npm run demo` uses, on a twin sandbox. */
export async function inDemoEngine(
	file: string,
	startNode: string,
	prepare?: (twin: RunningSandbox) => void,
) {
	const twin = await startSandbox({ port: 0, ...EXAMPLE_SANDBOX });
	try {
		prepare?.(twin);
		const result = await runWorkflow(
			example(file),
			{ apiKey: twin.keys.full, baseUrl: twin.baseUrl },
			{ startNode, mode: 'trigger' },
		);
		expect(result.status).toBe('success');
		return result;
	} finally {
		await twin.close();
	}
}
