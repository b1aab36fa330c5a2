// 8. Deliveries per second through n8n's queue mode: two webhook processes behind a round-robin
// balancer, two workers, Redis and Postgres. Bursts of signed deliveries go to the balancer's
// https address; a delivery counts once its run has reported from a worker (the workflow's last
// node posts to a sink), so the figure is the whole path, not only the answers.

import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { startSandbox } from '../../sandbox';
import { QueueCluster } from '../../harness/queue/cluster';
import { startRunSink, type RunSink } from '../../harness/queue/sink';
import { waitFor } from '../../harness/real-n8n/processes';
import { burst, type Sender } from '../n8n/deliveries';
import { packageTarball } from '../n8n/install';
import {
	activateTriggerPath,
	activateVerifyPath,
	benchTriggerWorkflow,
	type QueuePath,
} from './paths';
import {
	benchReturnAllWorkflow,
	measureSharedKey,
	RETURN_ALL_LEADS,
	type SharedKeyResult,
} from './rateLimit';

export interface QueueThroughputArgs {
	/** Deliveries in flight at once. */
	concurrency: number;
	/** Deliveries per measured burst. */
	deliveries: number;
	rounds: number;
	bodyBytes: number;
}

export interface QueueBurst {
	deliveries: number;
	ok: number;
	failed: number;
	answeredMs: number;
	/** From the first delivery sent to the last run reported. */
	processedMs: number;
	runs: number;
	answeredPerSecond: number;
	perSecond: number;
	/** Deliveries each webhook process answered. */
	perProcess: number[];
}

export interface QueuePathResult {
	path: string;
	bursts: QueueBurst[];
}

export interface QueueThroughputResult {
	startupSeconds: number;
	paths: QueuePathResult[];
	sharedKey: SharedKeyResult[];
}

async function measuredBurst(
	path: QueuePath,
	sink: RunSink,
	cluster: QueueCluster,
	sender: Sender,
	deliveries: number,
	concurrency: number,
): Promise<QueueBurst> {
	const before = sink.of(path.kind).length;
	cluster.balancer.clearLog();
	const sent = await burst(path, sender, deliveries, concurrency);
	await waitFor(
		`${sent.ok} runs of ${path.name}`,
		() => (sink.of(path.kind).length - before >= sent.ok ? true : undefined),
		{ timeoutMs: 300_000, intervalMs: 100 },
	).catch(() => undefined);
	const records = sink.of(path.kind).slice(before);
	const processedMs = Math.max(sent.startedAt, ...records.map((r) => r.at)) - sent.startedAt;
	return {
		deliveries,
		ok: sent.ok,
		failed: sent.failed,
		answeredMs: sent.answeredMs,
		processedMs,
		runs: records.length,
		answeredPerSecond: (sent.ok / sent.answeredMs) * 1000,
		perSecond: (records.length / Math.max(1, processedMs)) * 1000,
		perProcess: cluster.balancer.perBackend(),
	};
}

export async function measureQueueThroughput(
	args: QueueThroughputArgs,
	log: (line: string) => void,
): Promise<QueueThroughputResult> {
	const workDir = mkdtempSync(join(tmpdir(), 'lc-bench-queue-'));
	const sandbox = await startSandbox({ port: 0, leads: RETURN_ALL_LEADS, seed: 7 });
	const sink = await startRunSink();
	let cluster: QueueCluster | undefined;
	try {
		log('8: packing the package');
		const tarball = await packageTarball();
		log('8: starting the queue-mode cluster');
		cluster = await QueueCluster.start({
			tarball,
			workDir,
			service: { baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full },
			workflows: [benchTriggerWorkflow(sink.url), benchReturnAllWorkflow(sink.url)],
			log: (line) => log(`8: ${line}`),
		});
		// One secret signs every delivery: the trigger's subscription's, held by Verify's credential.
		const trigger = await activateTriggerPath(cluster, () => sandbox.control.webhooks()[0].secret);
		const signingSecret = trigger.secret;
		const verify = await activateVerifyPath(cluster, { signingSecret, sinkUrl: sink.url });
		const paths = [verify, trigger];
		const sender: Sender = { bodyBytes: args.bodyBytes, sequence: { next: 0 } };
		const results: QueuePathResult[] = paths.map((p) => ({ path: p.name, bursts: [] }));
		const running = cluster;
		const measure = (path: QueuePath, deliveries: number) =>
			measuredBurst(path, sink, running, sender, deliveries, args.concurrency);
		// A warm-up burst per path, not counted: the first runs load code and caches.
		for (const path of paths) await measure(path, Math.min(20, args.deliveries));
		for (let round = 0; round < args.rounds; round++) {
			// Rotate which path goes first, so that a drift of the machine favours neither.
			for (const i of paths.map((_, k) => (k + round) % paths.length)) {
				log(`8: ${paths[i].name}, round ${round + 1} of ${args.rounds}`);
				results[i].bursts.push(await measure(paths[i], args.deliveries));
			}
		}
		const sharedKey = await measureSharedKey(running, sandbox, sink, log);
		return { startupSeconds: running.startupSeconds, paths: results, sharedKey };
	} finally {
		await cluster?.stop();
		await sink.close();
		await sandbox.close();
		rmSync(workDir, { recursive: true, force: true });
	}
}
