// Node folders share only through nodes/shared/: one node importing another's files would tie
// their changes together without anyone seeing it.
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve, sep } from 'path';

const nodesDir = resolve(__dirname, '..', '..', 'nodes');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
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
