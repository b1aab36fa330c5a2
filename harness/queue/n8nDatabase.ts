import { waitFor } from '../real-n8n/processes';
import type { RunningPostgres } from './postgres';

/** What n8n recorded in the cluster's Postgres, read with psql (no client library). */
export class N8nDatabase {
	constructor(private readonly postgres: RunningPostgres) {}

	/** When n8n last recorded an outcome for the workflow's triggers (epoch seconds, 0 when never). */
	async activationStamp(workflowId: string): Promise<number> {
		const [row] = await this.postgres.query(
			`SELECT coalesce(extract(epoch FROM max("updatedAt"))::text, '0') FROM workflow_publication_trigger_status WHERE "workflowId" = '${workflowId}'`,
		);
		return Number(row?.[0] ?? 0);
	}

	/**
	 * n8n 2.41 activates asynchronously (a publication outbox) and records each trigger's
	 * outcome, `activated` or `failed`, in workflow_publication_trigger_status: wait for an
	 * outcome newer than `after`.
	 */
	async waitForActivation(workflowId: string, after = 0, timeoutMs = 60_000): Promise<void> {
		const rows = await waitFor(
			`the activation outcome of workflow ${workflowId}`,
			async () => {
				const found = await this.postgres.query(
					`SELECT status, coalesce("errorMessage", ''), extract(epoch FROM "updatedAt")::text FROM workflow_publication_trigger_status WHERE "workflowId" = '${workflowId}'`,
				);
				const fresh =
					found.length > 0 && found.every(([, , updatedAt]) => Number(updatedAt) > after);
				return fresh && found.every(([status]) => status === 'activated' || status === 'failed')
					? found
					: undefined;
			},
			{ timeoutMs, intervalMs: 300 },
		);
		const failed = rows.filter(([status]) => status === 'failed');
		if (failed.length > 0)
			throw new Error(`activation of ${workflowId} failed: ${failed.map((r) => r[1]).join('; ')}`);
	}

	/** The workflow's static data column as n8n stored it (one JSON for all its nodes). */
	async staticData(workflowId: string): Promise<Record<string, any>> {
		const [row] = await this.postgres.query(
			`SELECT coalesce("staticData"::text, '{}') FROM workflow_entity WHERE id = '${workflowId}'`,
		);
		return row ? JSON.parse(row[0]) : {};
	}

	/** Executions of a workflow by status, from n8n's database. */
	async executionCounts(workflowId: string): Promise<Record<string, number>> {
		const rows = await this.postgres.query(
			`SELECT status, count(*) FROM execution_entity WHERE "workflowId" = '${workflowId}' GROUP BY status`,
		);
		return Object.fromEntries(rows.map(([status, count]) => [status, Number(count)]));
	}

	/** Executions of a workflow, oldest first: id, mode, status. */
	async executions(
		workflowId: string,
	): Promise<Array<{ id: string; mode: string; status: string }>> {
		const rows = await this.postgres.query(
			`SELECT id, mode, status FROM execution_entity WHERE "workflowId" = '${workflowId}' ORDER BY id`,
		);
		return rows.map(([id, mode, status]) => ({ id, mode, status }));
	}
}
