import {
	returnAllBatch,
	setWorkerConcurrency,
	type ReturnAllBatch,
} from '../../../harness/queue/returnAll';
import { recordFigure } from '../support/figures';
import { IDS, PATHS, suite } from '../support/suite';

// Point 5: long reads on one key by both workers. Return-All runs of 2,500 leads (25 pages each)
// at 20 requests per 2 s: 4 runs with 2 at once per worker, then 10 runs with 5 at once per
// worker. The workers share nothing but the service's answers; each infers the others' spending
// from them. It runs last: the sandbox is reset to 2,500 leads for it.

const LEADS = 2_500;
const LIMIT = 20;
const WINDOW_MS = 2_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function longRead(runs: number, jobsPerWorker: number) {
	const { cluster, sandbox, sink } = suite;
	await setWorkerConcurrency(cluster, jobsPerWorker);
	const url = `${cluster.balancer.url}webhook/${PATHS.returnAll}`;
	sandbox.control.setRateLimit(LIMIT, WINDOW_MS);
	let batch: ReturnAllBatch;
	try {
		batch = await returnAllBatch({ sandbox, sink, url, runs, windowMs: WINDOW_MS });
	} finally {
		sandbox.control.setRateLimit(1000, 60_000);
	}
	const executionIds = new Set(batch.runs.map((r) => String(r.execution)));
	const perWorker = cluster.workers.map(
		(w) => cluster.workerExecutionIds(w).filter((id) => executionIds.has(id)).length,
	);
	const complete = batch.runs.filter((r) => {
		const ids = r.ids as string[];
		return ids.length === LEADS && new Set(ids).size === LEADS;
	}).length;
	const limitOptimalMs = (batch.pages / LIMIT) * WINDOW_MS;
	return {
		batch,
		perWorker,
		complete,
		ratio: batch.elapsedMs / limitOptimalMs,
		limitOptimalMs,
		throttled: batch.throttledPerWindow,
	};
}

/** 429s in one window seen at most, with the machine loaded; a quiet machine shows 1 at most. */
const MOST_429_IN_A_WINDOW = 3;
export function rateLimitSpecs(): void {
	beforeAll(async () => {
		suite.sandbox.control.reset({ leads: LEADS });
		await suite.cluster.activate(IDS.returnAll);
	});
	// The workers keep the last concurrency: nothing runs after this point.
	afterAll(() => suite.cluster.deactivate(IDS.returnAll).catch(() => undefined));

	it.each([
		{ runs: 4, jobsPerWorker: 2 },
		{ runs: 10, jobsPerWorker: 5 },
	])(
		'$runs Return-All runs of 2,500 leads, $jobsPerWorker at once per worker, one key at 20 requests / 2 s',
		async ({ runs, jobsPerWorker }) => {
			const read = await longRead(runs, jobsPerWorker);
			const { batch } = read;
			const counts = await suite.cluster.db.executionCounts(IDS.returnAll);
			recordFigure({
				point: '5',
				test: `rate limit across workers, ${runs} × ${LEADS} leads`,
				figure: `${batch.runs.length} runs (per worker ${read.perWorker.join(' / ')}), ${read.complete} with every lead once; ${batch.pages} pages, ${batch.throttled.length} × 429 (per window ${read.throttled.join(',') || 'none'}); failed executions ${counts.error ?? 0}; ${seconds(batch.elapsedMs)} = ${read.ratio.toFixed(2)} × limit-optimal (pages ÷ limit × window ${seconds(read.limitOptimalMs)}); requests per window ${batch.perWindow.join(',')}; runs started within ${seconds(batch.startSpreadMs)}`,
				target: `every lead once, 0 failed, ≤ ${MOST_429_IN_A_WINDOW} × 429 per window (1 on a quiet machine), ≤ 1.25 ×`,
			});
			expect(batch.runs).toHaveLength(runs);
			expect(read.complete).toBe(runs);
			expect(read.perWorker.every((n) => n > 0)).toBe(true);
			expect(counts.error ?? 0).toBe(0);
			// Every window, the first too, where the workers learn of each other: at most 1 × 429 on a
			// quiet machine; with the machine loaded (answers late) up to 3 were seen in one window,
			// which the pacing before the present one already reached at 4 and 5 (docs/queue-mode.md).
			expect(Math.max(0, ...read.throttled)).toBeLessThanOrEqual(MOST_429_IN_A_WINDOW);
			expect(read.ratio).toBeLessThanOrEqual(1.25);
		},
	);
}
