import type { RunningSandbox } from '../../sandbox';
import { httpCall } from '../real-n8n/http';
import { waitFor } from '../real-n8n/processes';
import type { QueueCluster } from './cluster';
import type { RunSink } from './sink';

// Return-All runs on one key shared by the workers of the cluster, measured from the service's
// request log: pages, 429s, time, and what each rate-limit window held. The queue suite checks
// these figures, the bench reports them.

export interface ReturnAllBatch {
	/** What each run reported to the sink (its execution id and the ids it returned). */
	runs: Array<Record<string, unknown>>;
	answers: number[];
	pages: number;
	/** When each 429 was answered. */
	throttled: number[];
	/** From the first page asked to the last. */
	elapsedMs: number;
	/** From the first run's first page to the last run's first page. */
	startSpreadMs: number;
	/** Requests the service counted in each window, from the first to the last. */
	perWindow: number[];
	/** 429s answered in each of those windows. */
	throttledPerWindow: number[];
	/**
	 * Requests counted in each window that began once every run had asked its first page and
	 * ended before the first run reported: the windows in which all runs were reading.
	 */
	whileAllRead: number[];
}

/**
 * Starts `runs` Return-All executions at once through `url` (the workflow's webhook) and waits
 * until all have reported and the sink has been quiet for 3 s.
 */
export async function returnAllBatch(options: {
	sandbox: RunningSandbox;
	sink: RunSink;
	url: string;
	runs: number;
	windowMs: number;
	kind?: string;
}): Promise<ReturnAllBatch> {
	const { sandbox, sink, url, runs, windowMs, kind = 'returnAll' } = options;
	sandbox.control.clearRequests();
	const before = sink.of(kind).length;
	const answers = await Promise.all(
		Array.from({ length: runs }, () =>
			httpCall('POST', url, {
				body: '{}',
				headers: { 'content-type': 'application/json' },
				timeoutMs: 20_000,
			}),
		),
	);
	let count = -1;
	let since = Date.now();
	await waitFor(
		`${runs} Return-All runs`,
		() => {
			const now = sink.of(kind).length;
			if (now !== count) [count, since] = [now, Date.now()];
			return now >= before + runs && Date.now() - since >= 3_000 ? true : undefined;
		},
		{ timeoutMs: 240_000, intervalMs: 250 },
	).catch(() => undefined);
	const requests = sandbox.control
		.requests()
		.filter((r) => r.method === 'GET' && r.path === '/v1/leads');
	const firstPages = requests.filter((r) => !r.query.cursor).map((r) => r.at);
	const counts = new Map<number, number>();
	const throttledIn = new Map<number, number>();
	for (const r of requests) {
		const window = Math.floor(r.at / windowMs);
		counts.set(window, (counts.get(window) ?? 0) + 1);
		if (r.status === 429) throttledIn.set(window, (throttledIn.get(window) ?? 0) + 1);
	}
	const windows = [...counts.keys()].sort((a, b) => a - b);
	const eachWindow = (of: Map<number, number>) =>
		windows.length
			? Array.from(
					{ length: windows.at(-1)! - windows[0] + 1 },
					(_, i) => of.get(windows[0] + i) ?? 0,
				)
			: [];
	const reports = sink.of(kind).slice(before);
	const allStarted = firstPages.length ? Math.max(...firstPages) : Infinity;
	const firstDone = reports.length ? Math.min(...reports.map((r) => r.at)) : -Infinity;
	return {
		runs: reports,
		answers: answers.map((a) => a.status),
		pages: requests.filter((r) => r.status === 200).length,
		throttled: requests.filter((r) => r.status === 429).map((r) => r.at),
		elapsedMs: requests.length ? requests[requests.length - 1].at - requests[0].at : 0,
		startSpreadMs: firstPages.length ? Math.max(...firstPages) - Math.min(...firstPages) : 0,
		perWindow: eachWindow(counts),
		throttledPerWindow: eachWindow(throttledIn),
		whileAllRead: windows
			.filter((w) => w * windowMs >= allStarted && (w + 1) * windowMs <= firstDone)
			.map((w) => counts.get(w) ?? 0),
	};
}

/** Restarts every worker with `concurrency` jobs at once (n8n's `--concurrency`). */
export async function setWorkerConcurrency(
	cluster: QueueCluster,
	concurrency: number,
): Promise<void> {
	for (const worker of cluster.workers) worker.options.workerConcurrency = concurrency;
	await Promise.all(cluster.workers.map((worker) => worker.restart()));
}
