// The child processes run plain JavaScript: the TypeScript of the package, the sandbox, the
// harness and the benchmark is transpiled once per `npm run bench` into bench/tmp/build, keeping
// the folder layout so relative imports still resolve (and node_modules is found by walking up).
// Without this every child would load the TypeScript compiler, which costs seconds of start-up
// and tens of MiB of RSS that would blur the memory figures.

import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { dirname, join, relative } from 'path';
import * as ts from 'typescript';

export const REPO_ROOT = join(__dirname, '..', '..');
export const BUILD_DIR = join(REPO_ROOT, 'bench', 'tmp', 'build');
// The harness and its helpers may import anything under test/ (but never the specs).
const SOURCES = ['bench', 'nodes', 'credentials', 'sandbox', 'harness', 'test'];
const SKIPPED = new Set(['node_modules', 'tmp', 'dist', 'n8n-install']);

function typeScriptFiles(dir: string): string[] {
	const files: string[] = [];
	for (const entry of readdirSync(dir)) {
		if (SKIPPED.has(entry)) continue;
		const path = join(dir, entry);
		if (statSync(path).isDirectory()) files.push(...typeScriptFiles(path));
		else if (entry.endsWith('.ts') && !/\.(d|test|e2e)\.ts$/.test(entry)) {
			files.push(path);
		}
	}
	return files;
}

/** Transpiles (no type check: `npm run typecheck` does that) and returns the worker's path. */
export function buildForChildren(): string {
	rmSync(BUILD_DIR, { recursive: true, force: true });
	const compilerOptions: ts.CompilerOptions = {
		module: ts.ModuleKind.CommonJS,
		target: ts.ScriptTarget.ES2022,
		esModuleInterop: true,
		removeComments: true,
	};
	for (const source of SOURCES) {
		for (const file of typeScriptFiles(join(REPO_ROOT, source))) {
			const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
				compilerOptions,
				fileName: file,
			});
			const out = join(BUILD_DIR, relative(REPO_ROOT, file)).replace(/\.ts$/, '.js');
			mkdirSync(dirname(out), { recursive: true });
			writeFileSync(out, outputText);
		}
	}
	return join(BUILD_DIR, 'bench', 'worker.js');
}
