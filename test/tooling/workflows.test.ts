import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { parse } from 'yaml';

// The GitHub Actions workflows: actionlint finds them clean and finds a broken one broken; they
// run what the README promises; the publish job refuses a tag that is not the package version.

const root = resolve(__dirname, '../..');
const workflowPath = (name: string) => join(root, '.github', 'workflows', name);
const readWorkflow = (name: string) => parse(readFileSync(workflowPath(name), 'utf8'));

let scratch: string;
beforeAll(() => {
	scratch = mkdtempSync(join(tmpdir(), 'lc-workflows-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function actionlint(...files: string[]) {
	const result = spawnSync(
		process.execPath,
		[join(root, 'scripts', 'lint-workflows.mjs'), ...files],
		{
			cwd: root,
			encoding: 'utf8',
		},
	);
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

type Step = { name?: string; run?: string; uses?: string; with?: Record<string, unknown> };
const runs = (steps: Step[]) => steps.map((step) => step.run ?? '').join('\n');

describe('actionlint', () => {
	// One run (the WebAssembly build takes seconds to start): the real files and a broken copy.
	let result: { status: number | null; output: string };
	beforeAll(() => {
		const broken = readFileSync(workflowPath('ci.yml'), 'utf8')
			.replace('node-version: ${{ matrix.node }}', 'node-version: ${{ matrix.nodes }}')
			.replace('runs-on: ubuntu-latest', 'runs_on: ubuntu-latest');
		const file = join(scratch, 'ci-broken.yml');
		writeFileSync(file, broken);
		result = actionlint(workflowPath('ci.yml'), workflowPath('publish.yml'), file);
	});

	it('fails on a broken copy of the CI workflow, naming each fault', () => {
		expect(result.status).toBe(1);
		expect(result.output).toMatch(/ci-broken\.yml:\d+:\d+: property "nodes" is not defined/);
		expect(result.output).toMatch(/ci-broken\.yml:\d+:\d+: "runs-on" section is missing/);
		expect(result.output).toContain('actionlint 3 workflow file(s): ');
	});

	it('finds nothing in the real workflow files', () => {
		const findings = result.output.split('\n').filter((line) => /^\S+:\d+:\d+: /.test(line));
		expect(findings.length).toBeGreaterThanOrEqual(2);
		expect(findings.filter((line) => !line.includes('ci-broken.yml'))).toEqual([]);
	});
});

describe('ci.yml', () => {
	const ci = readWorkflow('ci.yml');

	it('runs on every push and pull request, on Node 22 and 24', () => {
		expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
		expect(ci.on.push).toBeNull();
		expect(ci.jobs.test.strategy.matrix.node).toEqual([22, 24]);
	});

	it('installs from the lock, builds, lints, typechecks and tests, then the publishing checks', () => {
		const script = runs(ci.jobs.test.steps);
		const order = [
			'npm ci',
			'npm run build',
			'npm run lint',
			'npm run typecheck',
			'npm test',
			'npm run lint:workflows',
			'npm run lint:n8n-node',
			'npm run scan',
			'npm run check:pack',
		].map((command) => ({ command, at: script.indexOf(command) }));
		expect(order.filter(({ at }) => at < 0)).toEqual([]);
		expect(order.map(({ at }) => at)).toEqual([...order.map(({ at }) => at)].sort((a, b) => a - b));
	});

	it('runs the long suites in their own job, nightly, on main and on demand', () => {
		const job = ci.jobs['long-suites'];
		expect(runs(job.steps)).toMatch(/test:reliability[\s\S]*test:n8n1[\s\S]*test:e2e/);
		expect(ci.on.schedule).toHaveLength(1);
		expect(job.if).toContain("github.event_name == 'schedule'");
		expect(job.if).toContain("github.ref == 'refs/heads/main'");
	});
});

describe('publish.yml', () => {
	const publish = readWorkflow('publish.yml');
	const job = publish.jobs.publish;
	const steps: Step[] = job.steps;

	it('runs on version tags only, with the OIDC token npm provenance needs', () => {
		expect(Object.keys(publish.on)).toEqual(['push']);
		expect(Object.keys(publish.on.push)).toEqual(['tags']);
		expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
	});

	it('checks the tag, builds and tests before it publishes with provenance, publicly', () => {
		const script = runs(steps);
		const at = (text: string) => script.indexOf(text);
		expect(at("require('./package.json').version")).toBeGreaterThanOrEqual(0);
		expect(at('npm ci')).toBeGreaterThan(at("require('./package.json').version"));
		expect(at('npm run build')).toBeGreaterThan(at('npm ci'));
		expect(at('npm test')).toBeGreaterThan(at('npm run build'));
		expect(at('npm run scan')).toBeGreaterThan(at('npm test'));
		expect(steps[steps.length - 1].run).toBe('npm publish --provenance --access public');
	});

	describe('tag check', () => {
		const step = steps.find((candidate) => /package\.json/.test(candidate.run ?? ''))!;
		const check = (tag: string, version: string) => {
			const directory = mkdtempSync(join(scratch, 'tag-'));
			writeFileSync(join(directory, 'package.json'), JSON.stringify({ version }));
			const result = spawnSync('bash', ['-e', '-c', step.run!], {
				cwd: directory,
				encoding: 'utf8',
				env: { ...process.env, TAG: tag },
			});
			return { status: result.status, output: result.stdout };
		};

		it.each([
			['0.1.0', '0.1.0'],
			['v0.1.0', '0.1.0'],
			['v1.2.3-rc.1', '1.2.3-rc.1'],
		])('accepts tag %s for version %s', (tag, version) => {
			expect(check(tag, version)).toEqual({
				status: 0,
				output: `Publishing version ${version} for tag ${tag}\n`,
			});
		});

		it.each([
			['v0.2.0', '0.1.0'],
			['0.1.0', '0.1.1'],
			['vv0.1.0', '0.1.0'],
			['0.1', '0.1.0'],
		])('refuses tag %s for version %s', (tag, version) => {
			const result = check(tag, version);
			expect(result.status).toBe(1);
			expect(result.output).toContain(`Tag ${tag} does not match package.json version ${version}`);
		});

		it('reads the tag from the environment, never inline in the script', () => {
			expect(step.run).not.toContain('${{');
			expect((step as { env?: Record<string, string> }).env).toEqual({
				TAG: '${{ github.ref_name }}',
			});
		});
	});
});
