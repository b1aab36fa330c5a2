// Node folders share only through nodes/shared/: one node importing another's files would tie
// their changes together without anyone seeing it. The sandbox is a second, independent reading of
// the specification, so it imports nothing from what ships (nodes/, credentials/); and what ships
// or runs the tests never depends on test/.
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve, sep } from 'path';

const root = resolve(__dirname, '..', '..');
const nodesDir = join(root, 'nodes');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		if (name === 'node_modules') return [];
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return /\.(ts|js|mjs)$/.test(path) ? [path] : [];
	});
}

/** The relative module paths a file imports or re-exports. */
export function importedPaths(source: string): string[] {
	const found: string[] = [];
	const pattern =
		/(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]/g;
	for (const match of source.matchAll(pattern)) found.push(match[1] ?? match[2]);
	return found;
}

/** The top folder under nodes/ a path lies in, or undefined outside nodes/. */
function nodeFolderOf(path: string): string | undefined {
	const inside = relative(nodesDir, path);
	if (inside.startsWith('..')) return undefined;
	return inside.split(sep)[0];
}

/** Imports of `file` that land in another node's folder. */
export function crossNodeImports(file: string, source: string): string[] {
	const own = nodeFolderOf(file);
	return importedPaths(source).filter((spec) => {
		const target = nodeFolderOf(resolve(dirname(file), spec));
		return target !== undefined && target !== 'shared' && target !== own;
	});
}

describe('node folders share only through nodes/shared', () => {
	it('finds a deliberate cross-node import (the check can fail)', () => {
		const file = join(nodesDir, 'LeadConversationsPollTrigger', 'position.ts');
		const source = [
			"import { seenBefore } from '../shared/leadMark';",
			"import type { X } from '../LeadConversations/helpers/newLeadsSinceLastRun';",
			"export { y } from '../LeadConversationsTrigger/subscription/rules';",
		].join('\n');
		expect(crossNodeImports(file, source)).toEqual([
			'../LeadConversations/helpers/newLeadsSinceLastRun',
			'../LeadConversationsTrigger/subscription/rules',
		]);
	});

	it('no node imports from another node folder', () => {
		const offenders = sourceFiles(nodesDir).flatMap((file) =>
			crossNodeImports(file, readFileSync(file, 'utf8')).map(
				(spec) => `${relative(nodesDir, file)} → ${spec}`,
			),
		);
		expect(offenders).toEqual([]);
	});
});

/** Imports of `file` that resolve into one of `folders` (paths relative to the repository). */
export function importsInto(file: string, source: string, folders: string[]): string[] {
	return importedPaths(source).filter((spec) => {
		const target = relative(root, resolve(dirname(file), spec)).split(sep)[0];
		return folders.includes(target);
	});
}

function offendersIn(dirs: string[], forbidden: string[]): string[] {
	return dirs.flatMap((dir) =>
		sourceFiles(join(root, dir)).flatMap((file) =>
			importsInto(file, readFileSync(file, 'utf8'), forbidden).map(
				(spec) => `${relative(root, file)} → ${spec}`,
			),
		),
	);
}

describe('the sandbox reads the specification on its own', () => {
	it('finds a deliberate import from nodes/ (the check can fail)', () => {
		const file = join(root, 'sandbox', 'seed', 'records.ts');
		const source = [
			"import { LEAD_STATUSES } from '../constants';",
			"import { LEAD_INTENTS } from '../../nodes/shared/constants';",
			"export * from '../../credentials/LeadConversationsApi.credentials';",
		].join('\n');
		expect(importsInto(file, source, ['nodes', 'credentials'])).toEqual([
			'../../nodes/shared/constants',
			'../../credentials/LeadConversationsApi.credentials',
		]);
	});

	it('nothing in sandbox/ imports from nodes/ or credentials/', () => {
		expect(offendersIn(['sandbox'], ['nodes', 'credentials'])).toEqual([]);
	});
});

describe('nothing outside test/ imports from test/', () => {
	it('finds a deliberate import from test/ (the check can fail)', () => {
		const file = join(root, 'harness', 'engine', 'trigger.ts');
		expect(importsInto(file, "import { x } from '../../test/nodes/clock';", ['test'])).toEqual([
			'../../test/nodes/clock',
		]);
	});

	it('nodes, credentials, sandbox, harness, bench and scripts do not import from test/', () => {
		const dirs = ['nodes', 'credentials', 'sandbox', 'harness', 'bench', 'scripts', 'examples'];
		expect(offendersIn(dirs, ['test'])).toEqual([]);
	});
});
