import { join } from 'path';

import { installDir, nodeBin } from './paths';
import { runCommand } from './processes';

// n8n's sqlite3 module is compiled for the install's Node, so queries run in a short child process on it.
const queryScript = `
const sqlite3 = require(process.argv[1]);
const mode = process.argv[5] === 'write' ? sqlite3.OPEN_READWRITE : sqlite3.OPEN_READONLY;
const db = new sqlite3.Database(process.argv[2], mode);
db.configure('busyTimeout', 5000);
db.all(process.argv[3], JSON.parse(process.argv[4]), (error, rows) => {
	db.close();
	if (error) { process.stderr.write(String(error)); process.exit(1); }
	process.stdout.write(JSON.stringify(rows));
});`;

/** Reads rows from the sqlite database of an n8n user folder (read-only unless `mode` is "write"). */
export async function queryN8nDatabase<T = Record<string, unknown>>(
	userFolder: string,
	sql: string,
	params: unknown[] = [],
	mode: 'read' | 'write' = 'read',
): Promise<T[]> {
	const result = await runCommand(
		nodeBin,
		[
			'-e',
			queryScript,
			join(installDir, 'node_modules', 'sqlite3'),
			join(userFolder, '.n8n', 'database.sqlite'),
			sql,
			JSON.stringify(params),
			mode,
		],
		{ timeoutMs: 30_000 },
	);
	if (result.code !== 0) throw new Error(`sqlite query failed: ${result.stderr}`);
	return JSON.parse(result.stdout) as T[];
}

/** Changes the sqlite database of a stopped n8n (n8n itself may hold it open while running). */
export async function changeN8nDatabase(
	userFolder: string,
	sql: string,
	params: unknown[] = [],
): Promise<void> {
	await queryN8nDatabase(userFolder, sql, params, 'write');
}
