// Event: Verify keeps the keys of verified deliveries in n8n's de-duplication store: one row per
// node in n8n's `processed_data` table whose whole list n8n reads and writes back on every run, up
// to the node's cap. A workflow in production reaches that cap after its first N8N_STORE_CAP
// deliveries and stays there, so the bench fills the row to the cap before measuring: the figures
// are those of the steady state, not of a fresh workflow. The keys are random strings of the
// length n8n stores (an MD5 digest in base64), so no delivery of the bench matches one.

import { N8N_STORE_CAP } from '../../nodes/LeadConversations/actions/event/seenDeliveries';
import type { RunningPostgres } from '../../harness/queue/postgres';
import { changeN8nDatabase } from '../../harness/real-n8n/sqlite';

/** The store's row of a node, as n8n's de-duplication helper names it (scope "node"). */
const contextOf = (nodeId: string) => `n:${nodeId}`;

/** Fills a node's store in the sqlite database of a stopped n8n. */
export async function fillSqliteStore(
	userFolder: string,
	workflowId: string,
	nodeId: string,
	entries = N8N_STORE_CAP,
): Promise<void> {
	const sql =
		'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) ' +
		'INSERT OR REPLACE INTO processed_data (workflowId, context, value) ' +
		"SELECT ?, ?, json_object('mode', 'entries', 'data', " +
		'json_group_array(substr(hex(randomblob(12)), 1, 24))) FROM n';
	await changeN8nDatabase(userFolder, sql, [entries, workflowId, contextOf(nodeId)]);
}

/** Fills a node's store in the Postgres database of a queue-mode cluster. */
export async function fillPostgresStore(
	postgres: RunningPostgres,
	workflowId: string,
	nodeId: string,
	entries = N8N_STORE_CAP,
): Promise<void> {
	const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
	await postgres.query(
		'INSERT INTO processed_data ("workflowId", context, value) ' +
			`SELECT ${quoted(workflowId)}, ${quoted(contextOf(nodeId))}, ` +
			"json_build_object('mode', 'entries', 'data', json_agg(substr(md5(random()::text), 1, 24)))::text " +
			`FROM generate_series(1, ${Math.floor(entries)}) ` +
			'ON CONFLICT ("workflowId", context) DO UPDATE SET value = EXCLUDED.value',
	);
}
