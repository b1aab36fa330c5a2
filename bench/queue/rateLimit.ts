// 8b. Return-All runs of 2,500 leads on one API key shared by the cluster's two workers, at
// 20 requests per 2 s: 4 runs with 2 jobs per worker, 10 runs with 5. The workers share nothing
// but the service's answers; the figure is the time against pages ÷ limit × window.

import type { RunningSandbox } from '../../sandbox';
import type { QueueCluster } from '../../harness/queue/cluster';
import { returnAllBatch, setWorkerConcurrency } from '../../harness/queue/returnAll';
import type { RunSink } from '../../harness/queue/sink';
import { returnAllWorkflow, type BuiltWorkflow } from '../../harness/queue/workflows';

export const RETURN_ALL_LEADS = 2_500;
const LIMIT = 20;
const WINDOW_MS = 2_000;
const RETURN_ALL_ID = 'LcQueueBenchRAll';
const RETURN_ALL_PATH = 'lc-queue-bench-return-all';

export interface SharedKeyResult {
	runs: number;
	jobsPerWorker: number;
	complete: number;
	pages: number;
	throttled: number;
	/** The most 429s in one window. */
	worstWindow: number;
	seconds: number;
	/** seconds ÷ (pages ÷ limit × window) */
	ratio: number;
	perWindow: number[];
}

export function benchReturnAllWorkflow(sinkUrl: string): BuiltWorkflow {
	return returnAllWorkflow({ id: RETURN_ALL_ID, path: RETURN_ALL_PATH, sinkUrl });
}

export async function measureSharedKey(
	cluster: QueueCluster,
	sandbox: RunningSandbox,
	sink: RunSink,
	log: (line: string) => void,
): Promise<SharedKeyResult[]> {
	await cluster.activate(RETURN_ALL_ID);
	const results: SharedKeyResult[] = [];
	try {
		for (const { runs, jobsPerWorker } of [
			{ runs: 4, jobsPerWorker: 2 },
			{ runs: 10, jobsPerWorker: 5 },
		]) {
			log(
				`8: ${runs} Return-All runs of ${RETURN_ALL_LEADS} leads, ${jobsPerWorker} jobs per worker`,
			);
			await setWorkerConcurrency(cluster, jobsPerWorker);
			sandbox.control.setRateLimit(LIMIT, WINDOW_MS);
			try {
				const url = `${cluster.balancer.url}webhook/${RETURN_ALL_PATH}`;
				const batch = await returnAllBatch({ sandbox, sink, url, runs, windowMs: WINDOW_MS });
				const complete = batch.runs.filter((r) => {
					const ids = r.ids as string[];
					return ids.length === RETURN_ALL_LEADS && new Set(ids).size === RETURN_ALL_LEADS;
				}).length;
				results.push({
					runs,
					jobsPerWorker,
					complete,
					pages: batch.pages,
					throttled: batch.throttled.length,
					worstWindow: Math.max(0, ...batch.throttledPerWindow),
					seconds: batch.elapsedMs / 1000,
					ratio: batch.elapsedMs / ((batch.pages / LIMIT) * WINDOW_MS),
					perWindow: batch.perWindow,
				});
			} finally {
				sandbox.control.setRateLimit(1000, 60_000);
			}
		}
	} finally {
		await cluster.deactivate(RETURN_ALL_ID).catch(() => undefined);
	}
	return results;
}
