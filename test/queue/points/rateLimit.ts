import { recordFigure } from '../support/figures';
import { post, waitForQuiet } from '../support/runs';
import { IDS, PATHS, SEEDED_LEADS, suite } from '../support/suite';

// Point 5: four Return-All runs of 1,000 leads on one key, spread over both workers. The workers
// share nothing but the service's answers; each infers the others' spending from them.

const LIMIT = 20;
const WINDOW_MS = 2_000;
const RUNS = 4;

interface Batch {
	runs: Array<Record<string, unknown>>;
	pages: number;
	throttled: number[];
	/** From the first page asked to the last. */
	elapsedMs: number;
	/** From the first run's first page to the last run's first page. */
	startSpreadMs: number;
}

/** Starts the runs at once through the balancer and waits until all four have reported. */
async function returnAllBatch(): Promise<Batch> {
	const { sandbox, sink, cluster } = suite;
	sandbox.control.clearRequests();
	const before = sink.of('returnAll').length;
	const answers = await Promise.all(
		Array.from({ length: RUNS }, () =>
			post(`${cluster.balancer.url}webhook/${PATHS.returnAll}`, '{}'),
		),
	);
	expect(answers.map((a) => a.status)).toEqual(Array(RUNS).fill(200));
	await waitForQuiet(sink, 'returnAll', before + RUNS, {
		quietMs: 3_000,
		timeoutMs: 240_000,
	}).catch(() => undefined);
	const requests = sandbox.control
		.requests()
		.filter((r) => r.method === 'GET' && r.path === '/v1/leads');
	const firstPages = requests.filter((r) => !r.query.cursor).map((r) => r.at);
	return {
		runs: sink.of('returnAll').slice(before),
		pages: requests.filter((r) => r.status === 200).length,
		throttled: requests.filter((r) => r.status === 429).map((r) => r.at),
		elapsedMs: requests.length ? requests[requests.length - 1].at - requests[0].at : 0,
		startSpreadMs: firstPages.length ? Math.max(...firstPages) - Math.min(...firstPages) : 0,
	};
}

function worstWindow(throttled: number[]): number {
	const perWindow = new Map<number, number>();
	for (const at of throttled) {
		const window = Math.floor(at / WINDOW_MS);
		perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
	}
	return Math.max(0, ...perWindow.values());
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function rateLimitSpecs(): void {
	it('4 Return-All runs of 1,000 leads over two workers, one key at 20 requests / 2 s', async () => {
		const { cluster, sandbox } = suite;
		await cluster.activate(IDS.returnAll);
		// The same runs without a binding limit: how fast this machine reads the pages at all.
		const free = await returnAllBatch();
		sandbox.control.setRateLimit(LIMIT, WINDOW_MS);
		let limited: Batch;
		try {
			limited = await returnAllBatch();
		} finally {
			sandbox.control.setRateLimit(1000, 60_000);
			await cluster.deactivate(IDS.returnAll);
		}
		const executionIds = new Set(limited.runs.map((r) => String(r.execution)));
		const perWorker = cluster.workers.map(
			(w) => cluster.workerExecutionIds(w).filter((id) => executionIds.has(id)).length,
		);
		const complete = limited.runs.filter((r) => {
			const ids = r.ids as string[];
			return ids.length === SEEDED_LEADS && new Set(ids).size === SEEDED_LEADS;
		}).length;
		const counts = await cluster.db.executionCounts(IDS.returnAll);
		// The time the limit allows, and never less than the pages take here without a limit.
		const limitOptimal = Math.max((limited.pages / LIMIT) * WINDOW_MS, free.elapsedMs);
		const worst = worstWindow(limited.throttled);
		recordFigure({
			point: '5',
			test: 'rate limit across workers',
			figure: `${limited.runs.length} runs (per worker ${perWorker.join(' / ')}), ${complete} with every lead once; ${limited.pages} pages, ${limited.throttled.length} × 429 (worst window ${worst}); failed executions ${counts.error ?? 0}; ${seconds(limited.elapsedMs)} = ${(limited.elapsedMs / limitOptimal).toFixed(2)} × limit-optimal (pages ÷ limit × window ${seconds((limited.pages / LIMIT) * WINDOW_MS)}; the same runs without a limit ${seconds(free.elapsedMs)}); runs started within ${seconds(limited.startSpreadMs)}`,
			target: 'every lead once, 0 failed, ≤ 1 × 429 per window, ≤ 1.25 ×',
		});
		expect(limited.runs).toHaveLength(RUNS);
		expect(complete).toBe(RUNS);
		expect(perWorker.every((n) => n > 0)).toBe(true);
		expect(counts.error ?? 0).toBe(0);
		expect(worst).toBeLessThanOrEqual(1);
		expect(limited.elapsedMs).toBeLessThanOrEqual(1.25 * limitOptimal);
	});
}
