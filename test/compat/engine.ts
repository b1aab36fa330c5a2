import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folder of the package a resolved entry file belongs to. */
export function packageRootOf(entry: string, name: string): string {
	const marker = `/node_modules/${name}/`;
	const at = entry.lastIndexOf(marker);
	if (at === -1) return dirname(entry);
	return entry.slice(0, at + marker.length - 1);
}

function versionOf(name: string): string {
	const root = packageRootOf(require.resolve(name), name);
	return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
		.version;
}

/**
 * The n8n engine this test run loads, read from the packages themselves: n8n-core and
 * n8n-workflow 2.x under the main jest config, 1.x under test/compat/jest.n8n1.config.js. For
 * the few assertions on n8n's own words, which changed between the two lines.
 */
export const n8nEngine = {
	core: versionOf('n8n-core'),
	workflow: versionOf('n8n-workflow'),
	get major(): number {
		return Number(this.workflow.split('.')[0]);
	},
};
