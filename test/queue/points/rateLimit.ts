import {
	returnAllBatch,
	setWorkerConcurrency,
	worstWindow,
	type ReturnAllBatch,
} from '../../../harness/queue/returnAll';
import { recordFigure } from '../support/figures';
import { IDS, PATHS, SEEDED_LEADS, suite } from '../support/suite';

// Point 5: Return-All runs of 2,500 leads (25 pages each) on one key, spread over both workers:
// 4 runs with 2 jobs per worker, then 10 runs with 5 per worker. The workers share nothing but
// the service's answers; each infers the others' spending from them and takes its share.

const LIMIT = 20;
const WINDOW_MS = 2_000;

/** Runs started at once through the balancer, measured once all have reported. */
async function batchOf(runs: number): Promise<ReturnAllBatch> {
	const { sandbox, sink, cluster } = suite;
	const url = `${cluster.balancer.url}webhook/${PATHS.returnAll}`;
	const batch = await returnAllBatch({ sandbox, sink, url, runs, windowMs: WINDOW_MS });
	expect(batch.answers).toEqual(Array(runs).fill(200));
	return batch;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface Measured {
	batch: ReturnAllBatch;
	perWorker: number[];
	complete: number;
	failed: number;
	ratio: number;
	worst: number;
	figure: string;
}

/** One limited batch (and its unlimited twin when `free` is given), measured. */
async function measure(runs: number, free?: ReturnAllBatch): Promise<Measured> {
	const { cluster, sandbox } = suite;
	const before = await cluster.db.executionCounts(IDS.returnAll);
	sandbox.control.setRateLimit(LIMIT, WINDOW_MS);
	let batch: ReturnAllBatch;
	try {
		batch = await batchOf(runs);
	} finally {
		sandbox.control.setRateLimit(1000, 60_000);
	}
	const executionIds = new Set(batch.runs.map((r) => String(r.execution)));
	const perWorker = cluster.workers.map(
		(w) => cluster.workerExecutionIds(w).filter((id) => executionIds.has(id)).length,
	);
	const complete = batch.runs.filter((r) => {
		const ids = r.ids as string[];
		return ids.length === SEEDED_LEADS && new Set(ids).size === SEEDED_LEADS;
	}).length;
	const after = await cluster.db.executionCounts(IDS.returnAll);
	const failed = (after.error ?? 0) - (before.error ?? 0);
	const ideal = (batch.pages / LIMIT) * WINDOW_MS;
	// The time the limit allows, and never less than the pages take here without a limit.
	const limitOptimal = Math.max(ideal, free?.elapsedMs ?? 0);
	const ratio = batch.elapsedMs / limitOptimal;
	const worst = worstWindow(batch.throttled, WINDOW_MS);
	const figure = `${batch.runs.length} runs (per worker ${perWorker.join(' / ')}), ${complete} with every lead once; ${batch.pages} pages, ${batch.throttled.length} × 429 in ${batch.perWindow.length} windows (worst window ${worst}); failed executions ${failed}; ${seconds(batch.elapsedMs)} = ${ratio.toFixed(2)} × limit-optimal (pages ÷ limit × window ${seconds(ideal)}${free ? `; the same runs without a limit ${seconds(free.elapsedMs)}` : ''}); runs started within ${seconds(batch.startSpreadMs)}; requests per window ${batch.perWindow.join(' ')}`;
	return { batch, perWorker, complete, failed, ratio, worst, figure };
}

function expectTargets(measured: Measured, runs: number): void {
	expect(measured.batch.runs).toHaveLength(runs);
	expect(measured.complete).toBe(runs);
	expect(measured.perWorker.every((n) => n > 0)).toBe(true);
	expect(measured.failed).toBe(0);
	expect(measured.worst).toBeLessThanOrEqual(1);
	expect(measured.ratio).toBeLessThanOrEqual(1.25);
}

const workersAt = (concurrency: number) => setWorkerConcurrency(suite.cluster, concurrency);

export function rateLimitSpecs(): void {
	beforeAll(() => suite.cluster.activate(IDS.returnAll));
	afterAll(() => suite.cluster.deactivate(IDS.returnAll));

	it('4 Return-All runs of 2,500 leads over two workers with 2 jobs each, one key at 20 requests / 2 s', async () => {
		// The same runs without a binding limit: how fast this machine reads the pages at all.
		const free = await batchOf(4);
		const measured = await measure(4, free);
		recordFigure({
			point: '5',
			test: 'rate limit across workers: 4 × 2,500 leads, 2 jobs per worker',
			figure: measured.figure,
			target: 'every lead once, 0 failed, ≤ 1 × 429 per window, ≤ 1.25 ×',
		});
		expectTargets(measured, 4);
	});

	it('10 Return-All runs of 2,500 leads over two workers with 5 jobs each: within 1.25 ×, and a long read settles near the limit', async () => {
		await workersAt(5);
		let measured: Measured;
		try {
			measured = await measure(10);
		} finally {
			await workersAt(2);
		}
		// The windows in which every run was reading: from the last run's first page to the first
		// run's report (the runs start over a few seconds here, and end at different times).
		const steady = measured.batch.whileAllRead;
		const settled = steady.filter((n) => n >= LIMIT - 1).length;
		recordFigure({
			point: '5',
			test: 'rate limit across workers: 10 × 2,500 leads, 5 jobs per worker',
			figure: `${measured.figure}; while all runs read: ${steady.join(' ')} (${settled} of ${steady.length} windows at ${LIMIT - 1} or more)`,
			target:
				'every lead once, 0 failed, ≤ 1 × 429 per window, ≤ 1.25 ×; whole windows near the limit',
		});
		expectTargets(measured, 10);
		expect(steady.length).toBeGreaterThanOrEqual(3);
		expect(settled).toBeGreaterThanOrEqual(Math.ceil(steady.length * 0.8));
	});
}
