#!/usr/bin/env node
// Runs the real `n8n-node lint` (@n8n/node-cli) in its strict configuration on what ships.
//
// Strict mode (`"n8n": { "strict": true }`) makes `n8n-node lint` refuse any eslint.config.mjs
// other than its one-line default, and that default lints every file under the package folder
// with the node rules. This repository also holds tests, a service simulator and tooling that run
// on Node and may do what a node must not (read process.env, open sockets), so its own
// eslint.config.mjs is the same configuration limited to the shipped sources plus the scanner's
// rules (see docs/verification-and-lint.md, "Lint"). To run the tool exactly as n8n's verified
// authors do, this script lays out the package the way `n8n-node new` does:
// package.json with `strict: true`, the default eslint.config.mjs taken from @n8n/node-cli's
// own template, tsconfig.json, nodes/, credentials/ and icons/. It then:
//   1. proves strict mode is on: with one extra line in eslint.config.mjs, n8n-node lint must
//      fail with "Strict mode violation";
//   2. runs n8n-node lint on the untouched layout; it must pass.
// Exits non-zero when either does not hold.
import { spawnSync } from 'node:child_process';
import {
	appendFileSync,
	cpSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cliRoot = join(root, 'node_modules/@n8n/node-cli');
const cliVersion = JSON.parse(readFileSync(join(cliRoot, 'package.json'), 'utf8')).version;
const templateConfig = join(cliRoot, 'dist/template/templates/shared/default/eslint.config.mjs');
const cliBin = join(cliRoot, 'bin/n8n-node.mjs');

function stage() {
	const directory = mkdtempSync(join(tmpdir(), 'lead-conversations-n8n-node-lint-'));
	for (const entry of ['nodes', 'credentials', 'icons', 'tsconfig.json']) {
		cpSync(join(root, entry), join(directory, entry), { recursive: true });
	}
	const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	packageJson.n8n = { ...packageJson.n8n, strict: true };
	writeFileSync(join(directory, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
	cpSync(templateConfig, join(directory, 'eslint.config.mjs'));
	symlinkSync(join(root, 'node_modules'), join(directory, 'node_modules'), 'dir');
	return directory;
}

function lint(directory) {
	const result = spawnSync(process.execPath, [cliBin, 'lint'], {
		cwd: directory,
		encoding: 'utf8',
		env: { ...process.env, CI: 'true' },
	});
	if (result.error) throw result.error;
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const failures = [];
const directories = [];
try {
	process.stdout.write(`== @n8n/node-cli ${cliVersion}: n8n-node lint, strict mode\n`);

	const tampered = stage();
	directories.push(tampered);
	appendFileSync(join(tampered, 'eslint.config.mjs'), '// changed\n');
	const refused = lint(tampered);
	if (refused.status !== 0 && refused.output.includes('Strict mode violation')) {
		process.stdout.write('ok: strict mode is on (a changed eslint.config.mjs is refused)\n');
	} else {
		failures.push('strict mode did not refuse a changed eslint.config.mjs');
		process.stdout.write(refused.output);
	}

	const staged = stage();
	directories.push(staged);
	const started = Date.now();
	const result = lint(staged);
	process.stdout.write(result.output.replace(/^npm warn .*\n/gm, ''));
	if (result.status === 0 && !result.output.includes('Strict mode violation')) {
		process.stdout.write(
			`ok: n8n-node lint (strict, default eslint.config.mjs) passes on nodes/, credentials/ and package.json (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
		);
	} else {
		failures.push(`n8n-node lint exited with ${result.status}`);
	}
} finally {
	for (const directory of directories) rmSync(directory, { recursive: true, force: true });
}

if (failures.length > 0) {
	process.stdout.write(`n8n-node lint failed: ${failures.join('; ')}\n`);
	process.exit(1);
}
process.stdout.write('n8n-node lint passed\n');
