import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
const readJson = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8'));
const packageJson = readJson('package.json');

/** dist/x/Y.node.js is compiled from x/Y.node.ts (tsconfig.build.json keeps rootDir "."). */
const sourceOf = (distPath: string) => distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts');

describe('package.json as the community-package rules want it', () => {
	it('has no runtime dependencies and peers only on n8n-workflow "*"', () => {
		expect(Object.keys(packageJson.dependencies ?? {})).toEqual([]);
		expect(packageJson.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	});

	it('is findable as an n8n community package', () => {
		expect(packageJson.name).toMatch(/^(@[a-z0-9-]+\/)?n8n-nodes-[a-z0-9-]+$/);
		expect(packageJson.keywords).toContain('n8n-community-node-package');
		expect(packageJson.license).toBe('MIT');
	});

	it('runs no install-time lifecycle scripts', () => {
		const forbidden = [
			'prepare',
			'preinstall',
			'install',
			'postinstall',
			'prepublish',
			'preprepare',
			'postprepare',
		];
		expect(
			Object.keys(packageJson.scripts ?? {}).filter((name) => forbidden.includes(name)),
		).toEqual([]);
	});

	it('publishes only the build output n8n loads (no declarations)', () => {
		expect(packageJson.files).toEqual([
			'dist/nodes/**/*.js',
			'dist/nodes/**/*.node.json',
			'dist/credentials/**/*.js',
			'dist/icons/*.svg',
		]);
	});

	it('has no main entry (n8n reads the "n8n" section) and asks for a Node n8n supports', () => {
		expect(packageJson.main).toBeUndefined();
		expect(packageJson.engines).toEqual({ node: '>=22.16' });
	});

	it('declares strict mode off: its eslint.config.mjs extends the default (see docs/verification-and-lint.md)', () => {
		expect(packageJson.n8n.strict).toBe(false);
		expect(packageJson.scripts['lint:n8n-node']).toBe('node scripts/n8n-node-lint.mjs');
	});

	it('ships a codex file beside each node, with the search aliases people type', () => {
		for (const node of packageJson.n8n.nodes as string[]) {
			const codexPath = sourceOf(node).replace(/\.ts$/, '.json');
			const codex = readJson(codexPath);
			const type = `${packageJson.name}.${node
				.split('/')
				.pop()!
				.replace('.node.js', '')
				.replace(/^./, (c: string) => c.toLowerCase())}`;
			expect({ codexPath, node: codex.node }).toEqual({ codexPath, node: type });
			expect(codex.categories.length).toBeGreaterThan(0);
			expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
			expect(codex.resources.credentialDocumentation[0].url).toMatch(/#credentials$/);
			for (const alias of ['lead', 'CRM', 'dealership', 'conversation', 'AI agent']) {
				expect({ codexPath, alias, listed: codex.alias.includes(alias) }).toEqual({
					codexPath,
					alias,
					listed: true,
				});
			}
		}
		// Lead → Assign is found by what people call it; the editor searches names and aliases only.
		for (const codexPath of [
			'nodes/LeadConversations/LeadConversations.node.json',
			'nodes/LeadConversationsTrigger/LeadConversationsTrigger.node.json',
		]) {
			expect(readJson(codexPath).alias).toEqual(expect.arrayContaining(['assign', 'round robin']));
		}
		const gulpfile = readFileSync(join(root, 'gulpfile.js'), 'utf8');
		expect(gulpfile).toContain("'nodes/**/*.node.json', 'dist/nodes'");
	});

	it("changes nothing about a user's install from the repository .npmrc but ignore-scripts, which the README explains", () => {
		const npmrc = readFileSync(join(root, '.npmrc'), 'utf8')
			.split('\n')
			.map((line) => line.trim())
			.filter((line) => line && !line.startsWith('#'));
		expect(npmrc).toEqual(['ignore-scripts=true']);
		const readme = readFileSync(join(root, 'README.md'), 'utf8');
		expect(readme).toMatch(/`\.npmrc` sets `ignore-scripts=true`/);
	});

	it('registers the action node, the triggers and the credential', () => {
		expect(packageJson.n8n.n8nNodesApiVersion).toBe(1);
		expect(packageJson.n8n.credentials).toEqual([
			'dist/credentials/LeadConversationsApi.credentials.js',
			'dist/credentials/LeadConversationsSigningSecretApi.credentials.js',
		]);
		expect(packageJson.n8n.nodes).toEqual([
			'dist/nodes/LeadConversations/LeadConversations.node.js',
			'dist/nodes/LeadConversationsTrigger/LeadConversationsTrigger.node.js',
			'dist/nodes/LeadConversationsPollTrigger/LeadConversationsPollTrigger.node.js',
		]);
	});

	it('points every registered entry at a source file the build compiles', () => {
		const build = readJson('tsconfig.build.json');
		expect(build.compilerOptions.rootDir).toBe('.');
		expect(build.include).toEqual(['credentials/**/*.ts', 'nodes/**/*.ts']);

		for (const entry of [...packageJson.n8n.credentials, ...packageJson.n8n.nodes]) {
			expect(entry).toMatch(/^dist\/(nodes|credentials)\/.+\.(node|credentials)\.js$/);
			expect({ entry, sourceExists: existsSync(join(root, sourceOf(entry))) }).toEqual({
				entry,
				sourceExists: true,
			});
		}
	});

	it('lints exactly what the scanner lints in the sources', () => {
		expect(packageJson.scripts.lint).toBe(
			'eslint nodes credentials package.json && npm run format:check',
		);
		expect(packageJson.scripts['format:check']).toMatch(/^prettier .* --check$/);
		expect(packageJson.scripts.scan).toBe('node scripts/scan.mjs');
	});

	it('builds icons from the shared icons folder with light and dark variants', () => {
		for (const icon of ['icons/leadConversations.svg', 'icons/leadConversations.dark.svg']) {
			expect({ icon, exists: existsSync(join(root, icon)) }).toEqual({ icon, exists: true });
		}
		const gulpfile = readFileSync(join(root, 'gulpfile.js'), 'utf8');
		expect(gulpfile).toContain("'icons/**/*.{png,svg}', 'dist/icons'");
		expect(packageJson.scripts.build).toContain('gulp build:assets');
	});

	it('lets ts-node (demo, dev, bench) load a node module, not the codex file beside it', () => {
		const result = spawnSync(
			process.execPath,
			[
				require.resolve('ts-node/dist/bin'),
				'--transpile-only',
				'-e',
				"process.stdout.write(typeof require('./nodes/LeadConversations/LeadConversations.node').LeadConversations)",
			],
			{ cwd: root, encoding: 'utf8' },
		);
		expect({ stdout: result.stdout, status: result.status }).toEqual({
			stdout: 'function',
			status: 0,
		});
	});
});
