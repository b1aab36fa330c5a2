#!/usr/bin/env node
// Runs the lint step of n8n's community-package scan locally, on what would be published:
//   1. eslint.config.mjs sets every rule of the scanner's configuration and of n8n-node lint's
//      (@n8n/node-cli `config`) at the same level;
//   2. a fresh build (npm run build);
//   3. the scanner's source leg: package.json and nodes/credentials sources;
//   4. npm pack: the tarball holds only the allowed files;
//   5. the scanner's tarball leg: every .js file and package.json of the extracted tarball;
//   6. n8n-core's package loader loads the build: both nodes with their codex (categories,
//      search aliases, documentation), the credential, and icons inside the tarball.
// The provenance and GitHub-source checks of the real scan need a published version and the
// network, so they are not part of this script. Exits non-zero when any step fails.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';

import {
	analyzePackage,
	buildScanConfig,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const ALLOWED_IN_TARBALL = [
	/^package\.json$/,
	/^README\.md$/,
	/^LICENSE(\.md)?$/,
	/^dist\/nodes\/.+/,
	/^dist\/credentials\/.+/,
	/^dist\/icons\/.+\.(svg|png)$/,
];

const failures = [];

function step(title) {
	process.stdout.write(`\n== ${title}\n`);
}

function fail(message) {
	failures.push(message);
	process.stdout.write(`FAIL: ${message}\n`);
}

function pass(message) {
	process.stdout.write(`ok: ${message}\n`);
}

function run(command, args, options = {}) {
	const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', ...options });
	if (result.error) throw result.error;
	return result;
}

/** Representative files of each rule scope the scanner distinguishes. */
const PARITY_SAMPLES = [
	'package.json',
	'credentials/LeadConversationsApi.credentials.ts',
	'nodes/LeadConversations/LeadConversations.node.ts',
	'nodes/LeadConversationsTrigger/LeadConversationsTrigger.node.ts',
	'nodes/shared/constants.ts',
];

function ruleLevels(config) {
	const levels = {};
	for (const [name, setting] of Object.entries(config?.rules ?? {})) {
		const level = Array.isArray(setting) ? setting[0] : setting;
		levels[name] = { 0: 'off', 1: 'warn', 2: 'error' }[level] ?? level;
	}
	return levels;
}

/** Rules set by `config` to the level `ours` sets them, as "rule: ours X, theirs Y" lines. */
function missingFrom(oursRules, theirRules) {
	return Object.keys(theirRules)
		.filter((rule) => oursRules[rule] !== theirRules[rule])
		.map((rule) => `${rule}: ours ${oursRules[rule] ?? 'unset'}, theirs ${theirRules[rule]}`);
}

async function checkLintParity() {
	step('eslint.config.mjs holds every rule of the scanner and of n8n-node lint');
	const { config: nodeCliConfig } = await import('@n8n/node-cli/eslint');
	const ours = new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.config.mjs') });
	const references = {
		scanner: new ESLint({
			cwd: root,
			overrideConfigFile: true,
			overrideConfig: await buildScanConfig(),
		}),
		'n8n-node lint': new ESLint({
			cwd: root,
			overrideConfigFile: true,
			overrideConfig: nodeCliConfig,
		}),
	};
	for (const sample of PARITY_SAMPLES) {
		const file = join(root, sample);
		const oursRules = ruleLevels(await ours.calculateConfigForFile(file));
		for (const [name, eslint] of Object.entries(references)) {
			const theirRules = ruleLevels(await eslint.calculateConfigForFile(file));
			const differences = missingFrom(oursRules, theirRules);
			if (differences.length > 0) {
				fail(`${sample} is linted differently from ${name}:\n  ${differences.join('\n  ')}`);
			} else {
				pass(`${sample}: all ${Object.keys(theirRules).length} rules of ${name} at the same level`);
			}
		}
	}
}

function build() {
	step('npm run build');
	const result = run('npm', ['run', 'build'], { stdio: 'inherit' });
	if (result.status !== 0) {
		fail(`npm run build exited with ${result.status}`);
		return false;
	}
	for (const entry of [...packageJson.n8n.nodes, ...packageJson.n8n.credentials]) {
		if (existsSync(join(root, entry))) pass(`${entry} built`);
		else fail(`${entry} is listed in package.json "n8n" but was not built`);
	}
	return true;
}

async function analyze(title, directory, patterns) {
	step(title);
	const result = await analyzePackage(directory, patterns);
	if (result.details) process.stdout.write(`${result.details}\n`);
	if (!result.passed) {
		fail(`${title}: ${result.message ?? 'failed'}`);
	} else if (result.message) {
		// e.g. "No files found to analyze": a leg that checked nothing is not a pass.
		fail(`${title}: ${result.message}`);
	} else {
		pass(`${title}: no errors`);
	}
}

function packTarball(destination) {
	step('npm pack');
	const result = run('npm', ['pack', '--json', '--pack-destination', destination]);
	if (result.status !== 0) {
		fail(`npm pack exited with ${result.status}: ${result.stderr}`);
		return undefined;
	}
	const [packed] = JSON.parse(result.stdout.slice(result.stdout.indexOf('[')));
	const paths = packed.files.map((file) => file.path);
	const unexpected = paths.filter(
		(path) => !ALLOWED_IN_TARBALL.some((allowed) => allowed.test(path)),
	);
	if (unexpected.length > 0) fail(`the tarball holds files it must not: ${unexpected.join(', ')}`);
	else pass(`${paths.length} files, all allowed`);
	for (const entry of [...packageJson.n8n.nodes, ...packageJson.n8n.credentials]) {
		if (!paths.includes(entry)) fail(`the tarball lacks ${entry}`);
	}
	if (!paths.some((path) => path.startsWith('dist/icons/'))) fail('the tarball has no icons');
	return { tarball: join(destination, packed.filename), paths };
}

async function loadLikeN8n(tarballPaths) {
	step('n8n loads the package');
	// n8n-core keeps an instance folder; keep it out of the home directory.
	if (!process.env.N8N_USER_FOLDER) {
		process.env.N8N_USER_FOLDER = join(workDirectory, 'n8n-user-folder');
		mkdirSync(process.env.N8N_USER_FOLDER, { recursive: true });
	}
	const { PackageDirectoryLoader } = createRequire(import.meta.url)('n8n-core');
	const loader = new PackageDirectoryLoader(root);
	await loader.loadAll();

	const expected = {
		nodes: packageJson.n8n.nodes.length,
		credentials: packageJson.n8n.credentials.length,
	};
	const loaded = { nodes: loader.types.nodes.length, credentials: loader.types.credentials.length };
	if (loaded.nodes !== expected.nodes || loaded.credentials !== expected.credentials) {
		fail(
			`n8n loaded ${JSON.stringify(loaded)}, package.json registers ${JSON.stringify(expected)}`,
		);
	} else {
		pass(`loaded ${loaded.nodes} nodes and ${loaded.credentials} credential(s)`);
	}

	// The codex beside each node: categories, search aliases and documentation links for the
	// editor's node panel.
	for (const type of loader.types.nodes) {
		const { codex } = loader.nodeTypes[type.name]?.type.description ?? {};
		const aliases = codex?.alias ?? [];
		if (!codex?.categories?.length || !aliases.includes('dealership')) {
			fail(`${type.name} has no codex with categories and search aliases`);
		} else if (!codex.resources?.primaryDocumentation?.[0]?.url) {
			fail(`${type.name}'s codex has no documentation link`);
		} else {
			pass(`${type.name} codex: ${codex.categories.join(', ')}; aliases ${aliases.join(', ')}`);
		}
	}

	const prefix = `icons/${packageJson.name}/`;
	for (const type of [...loader.types.nodes, ...loader.types.credentials]) {
		const { light, dark } = type.iconUrl ?? {};
		if (!light || !dark || light === dark) {
			fail(`${type.name} has no distinct light and dark file icons`);
			continue;
		}
		const missing = [light, dark]
			.map((url) => url.slice(prefix.length))
			.filter((path) => !tarballPaths.includes(path));
		if (missing.length > 0)
			fail(`${type.name} icons are not in the tarball: ${missing.join(', ')}`);
		else pass(`${type.name} icons resolve to ${light.slice(prefix.length)} and its dark variant`);
	}
}

function extract(tarball, destination) {
	mkdirSync(destination, { recursive: true });
	const result = run('tar', ['-xzf', tarball, '-C', destination, '--strip-components=1']);
	if (result.status !== 0) {
		fail(`tar could not extract ${tarball}: ${result.stderr}`);
		return false;
	}
	return true;
}

const workDirectory = mkdtempSync(join(tmpdir(), 'lead-conversations-scan-'));
try {
	await checkLintParity();
	if (build()) {
		await analyze('scanner source leg', root, SOURCE_FILE_PATTERNS);
		const packed = packTarball(workDirectory);
		const extracted = join(workDirectory, 'package');
		if (packed && extract(packed.tarball, extracted)) {
			await analyze('scanner tarball leg', extracted, ['**/*.js', 'package.json']);
		}
		if (packed) await loadLikeN8n(packed.paths);
	}
} catch (error) {
	fail(`scan aborted: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
	rmSync(workDirectory, { recursive: true, force: true });
}

step('result');
if (failures.length > 0) {
	process.stdout.write(`scan failed: ${failures.length} problem(s)\n`);
	process.exit(1);
}
process.stdout.write('scan passed\n');
