// What the harness does differently on n8n 1.x and 2.x: the one place that knows. The install
// (paths.ts) decides the line; everything else asks here.

import { readFileSync } from 'fs';
import { join } from 'path';

import { installDir } from './paths';

/** The version of the n8n the harness drives, read from the install. */
export function n8nVersion(): string {
	const manifest = join(installDir, 'node_modules', 'n8n', 'package.json');
	return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

export function n8nMajor(): number {
	return Number(n8nVersion().split('.')[0]);
}

/** Environment every n8n process gets on this line. */
export function lineEnv(): Record<string, string> {
	// 2.x: the MCP registry module would fetch from the internet at start. n8n 1.x has no such
	// module and refuses to start when an unknown one is named.
	if (n8nMajor() >= 2) return { N8N_DISABLED_MODULES: 'mcp-registry' };
	// n8n 1.x runs SQLite on one connection unless told otherwise (and warns at start that this is
	// deprecated); 2.x's default is a pool of 3. On one connection a Data Table upsert of a few
	// hundred rows failed in 2 of 3 runs with "Transaction is not started yet" while other queries
	// ran (test/compat/README.md), so 1.x gets 2.x's default.
	return { DB_SQLITE_POOL_SIZE: '3' };
}

/**
 * Whether activation is recorded in `workflow_publication_trigger_status` (2.x's publication
 * outbox, which activates after the API call returns). n8n 1.x activates within the API call,
 * has no such table, and answers an activation that failed with an error.
 */
export function activatesAsynchronously(): boolean {
	return n8nMajor() >= 2;
}

/** What n8n's credential Test button says for a rejected API key (docs/guarantees.md). */
export function rejectedKeyMessage(): RegExp {
	// n8n 1.x's credential tester loses the HTTP status of a failed request and shows its own
	// text instead of the credential's rules (test/compat/README.md).
	return n8nMajor() >= 2
		? /API key rejected/
		: /Authorization failed - please check your credentials/;
}

/**
 * How a Data Table node that picks its table By Name must be set on this line. n8n 1.x's Data
 * Table node has only From List and ID, and reads a name as an ID: there the user chooses the
 * table From List after importing, which stores the table's ID.
 */
export function pickDataTable(
	locator: { __rl: true; mode: string; value: string },
	tableIdsByName: Record<string, string>,
): { __rl: true; mode: string; value: string; cachedResultName?: string } {
	if (n8nMajor() >= 2 || locator.mode !== 'name') return locator;
	const id = tableIdsByName[locator.value];
	if (!id) throw new Error(`No data table named "${locator.value}" was made`);
	return { __rl: true, mode: 'list', value: id, cachedResultName: locator.value };
}
