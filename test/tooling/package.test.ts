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

	it('publishes only the build output', () => {
		expect(packageJson.files).toEqual(['dist/nodes', 'dist/credentials', 'dist/icons']);
	});

	it('registers the action node, the trigger and the credential', () => {
		expect(packageJson.n8n.n8nNodesApiVersion).toBe(1);
		expect(packageJson.n8n.credentials).toEqual([
			'dist/credentials/LeadConversationsApi.credentials.js',
			'dist/credentials/LeadConversationsSigningSecretApi.credentials.js',
		]);
		expect(packageJson.n8n.nodes).toEqual([
			'dist/nodes/LeadConversations/LeadConversations.node.js',
			'dist/nodes/LeadConversationsTrigger/LeadConversationsTrigger.node.js',
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
		expect(packageJson.scripts.lint).toBe('eslint nodes credentials package.json');
		expect(packageJson.scripts.scan).toBe('node scripts/scan.mjs');
	});

	it('builds icons from the shared icons folder with light and dark variants', () => {
		for (const icon of ['icons/leadConversations.svg', 'icons/leadConversations.dark.svg']) {
			expect({ icon, exists: existsSync(join(root, icon)) }).toEqual({ icon, exists: true });
		}
		const gulpfile = readFileSync(join(root, 'gulpfile.js'), 'utf8');
		expect(gulpfile).toContain("'icons/**/*.{png,svg}', 'dist/icons'");
	});
});
