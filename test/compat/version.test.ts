import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { NodeOperationError } from 'n8n-workflow';

import { createTriggerHarness } from '../../harness/engine';
import { triggerParameters } from '../nodes/trigger/fixtures';
import { n8nEngine } from './engine';

// Which engine this run is meant to use: n8n 1.x under test/compat/jest.n8n1.config.js (its setup
// sets the variable), otherwise the 2.x engine the package itself depends on for development.
const onN8n1 = process.env.LEAD_CONVERSATIONS_TEST_ENGINE === 'n8n1';
const repoRoot = resolve(__dirname, '../..');
const manifest = onN8n1 ? 'test/compat/n8n1/package.json' : 'package.json';
const pinned = (() => {
	const json = JSON.parse(readFileSync(join(repoRoot, manifest), 'utf8')) as {
		dependencies?: Record<string, string>;
		devDependencies?: Record<string, string>;
	};
	return { ...json.devDependencies, ...json.dependencies };
})();

// What the tests, the harness and the nodes get when they import the engine packages.
const coreEntry = require.resolve('n8n-core');
const workflowEntry = require.resolve('n8n-workflow');
// What n8n-core itself gets when it imports n8n-workflow.
const workflowOfCore = require.resolve('n8n-workflow', { paths: [dirname(coreEntry)] });

describe(`the engine this run uses (${onN8n1 ? 'n8n 1.x' : 'the development engine'})`, () => {
	it(`is n8n-core and n8n-workflow as pinned in ${manifest}`, () => {
		expect({ core: n8nEngine.core, workflow: n8nEngine.workflow }).toEqual({
			core: pinned['n8n-core'],
			workflow: pinned['n8n-workflow'],
		});
		expect(n8nEngine.major).toBe(onN8n1 ? 1 : 2);
	});

	it('comes from the 1.x install exactly when the run is meant to be on n8n 1.x', () => {
		const install = join(repoRoot, 'test', 'compat', 'n8n1', 'node_modules') + '/';
		expect({
			core: coreEntry.startsWith(install),
			workflow: workflowEntry.startsWith(install),
		}).toEqual({ core: onN8n1, workflow: onN8n1 });
	});

	it('has one n8n-workflow: the copy n8n-core uses is the one everything else imports', () => {
		expect(workflowOfCore).toBe(workflowEntry);
	});

	it("runs the nodes on that same n8n-workflow (the node's error is of the engine's class)", async () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const engineWorkflow = require(workflowOfCore) as typeof import('n8n-workflow');
		// The trigger refuses an http:// webhook URL before sending anything, so no service is needed.
		const harness = createTriggerHarness(
			triggerParameters(),
			{ apiKey: 'unused', baseUrl: 'http://127.0.0.1:9/v1' },
			{ webhookBaseUrl: 'http://n8n.example.test/' },
		);

		const error = await harness.create().then(
			() => undefined,
			(thrown: unknown) => thrown,
		);

		expect(error).toBeInstanceOf(engineWorkflow.NodeOperationError);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/https:\/\//);
	});
});
