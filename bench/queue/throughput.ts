// 7. Deliveries per second through n8n's queue mode: two webhook processes behind a round-robin
// balancer, two workers, Redis and Postgres. Bursts of signed deliveries go to the balancer's
// https address; a delivery counts once its run has reported from a worker (the workflow's last
// node posts to a sink), so the figure is the whole path, not only the answers.

import { createHmac } from 'crypto';
import { mkdtempSync, rmSync } from 'fs';
import { Agent, request } from 'https';
import { tmpdir } from 'os';
import { join } from 'path';

import { startSandbox } from '../../sandbox';
import { QueueCluster } from '../../harness/queue/cluster';
import { startRunSink, type RunSink } from '../../harness/queue/sink';
import {
	triggerWebhookPath,
	triggerWorkflow,
	type BuiltWorkflow,
} from '../../harness/queue/workflows';
import { waitFor } from '../../harness/real-n8n/processes';
import { packPrivately } from '../n8n/install';

export interface QueueThroughputArgs {
	/** Deliveries in flight at once. */
	concurrency: number;
	/** Deliveries per measured burst. */
	deliveries: number;
	rounds: number;
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
	/** Paths that could not be measured in this build, with the reason. */
	pendingPaths: Array<{ path: string; reason: string }>;
}

/** A path through the cluster: a workflow, where deliveries go, how they are signed. */
interface MeasuredPath {
	name: string;
	workflow: BuiltWorkflow;
	kind: string;
	url: () => string;
	secret: () => string;
}

const TRIGGER_ID = 'LcQueueBenchTrig1';
const TRIGGER_WEBHOOK_ID = '6c1d0e2f-3a4b-4c5d-9e6f-7a8b9c0d1e31';

function leadEvent(sequence: number, round: number): Buffer {
	return Buffer.from(
		JSON.stringify({
			event: 'lead.qualified',
			timestamp: new Date().toISOString(),
			organization_id: 'org_alpha',
			data: {
				id: `lead_bench_${round}_${sequence}`,
				name: 'Ana Pérez',
				phone: '+5491123456789',
				score: 88,
				intent: 'purchase_30_days',
				vehicle_interest: 'pickup',
				channel: 'chat_app',
				status: 'qualified',
			},
		}),
	);
}

async function burst(
	path: MeasuredPath,
	sink: RunSink,
	cluster: QueueCluster,
	args: QueueThroughputArgs,
	round: number,
): Promise<QueueBurst> {
	const agent = new Agent({
		keepAlive: true,
		maxSockets: args.concurrency,
		rejectUnauthorized: false,
	});
	const target = new URL(path.url());
	const secret = path.secret();
	const before = sink.of(path.kind).length;
	cluster.balancer.clearLog();
	let ok = 0;
	let failed = 0;
	let next = 0;
	const post = (body: Buffer) =>
		new Promise<number>((resolve) => {
			const req = request(
				target,
				{
					method: 'POST',
					agent,
					headers: {
						'Content-Type': 'application/json',
						'Content-Length': body.length,
						'X-Service-Signature': createHmac('sha256', secret).update(body).digest('hex'),
					},
					timeout: 30_000,
				},
				(res) => {
					res.resume();
					res.on('end', () => resolve(res.statusCode ?? 0));
				},
			);
			req.on('error', () => resolve(0));
			req.on('timeout', () => req.destroy());
			req.end(body);
		});
	const started = Date.now();
	await Promise.all(
		Array.from({ length: args.concurrency }, async () => {
			while (next < args.deliveries) {
				const status = await post(leadEvent(next++, round));
				if (status >= 200 && status < 300) ok++;
				else failed++;
			}
		}),
	);
	const answeredMs = Date.now() - started;
	agent.destroy();
	await waitFor(
		`${ok} runs of ${path.name}`,
		() => (sink.of(path.kind).length - before >= ok ? true : undefined),
		{
			timeoutMs: 300_000,
			intervalMs: 100,
		},
	).catch(() => undefined);
	const records = sink.of(path.kind).slice(before);
	const lastRun = Math.max(started, ...records.map((r) => r.at));
	const processedMs = lastRun - started;
	return {
		deliveries: args.deliveries,
		ok,
		failed,
		answeredMs,
		processedMs,
		runs: records.length,
		answeredPerSecond: (ok / answeredMs) * 1000,
		perSecond: (records.length / Math.max(1, processedMs)) * 1000,
		perProcess: cluster.balancer.perBackend(),
	};
}

export async function measureQueueThroughput(
	args: QueueThroughputArgs,
	log: (line: string) => void,
): Promise<QueueThroughputResult> {
	const workDir = mkdtempSync(join(tmpdir(), 'lc-bench-queue-'));
	const sandbox = await startSandbox({ port: 0, leads: 50, seed: 7 });
	const sink = await startRunSink();
	let cluster: QueueCluster | undefined;
	try {
		log('7: packing the package');
		const tarball = await packPrivately(workDir);
		const trigger = triggerWorkflow({
			id: TRIGGER_ID,
			webhookId: TRIGGER_WEBHOOK_ID,
			sinkUrl: sink.url,
			events: ['lead.qualified'],
			kind: 'benchTrigger',
		});
		log('7: starting the queue-mode cluster');
		cluster = await QueueCluster.start({
			tarball,
			workDir,
			service: { baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full },
			workflows: [trigger],
			log: (line) => log(`7: ${line}`),
		});
		await cluster.activate(TRIGGER_ID);
		const running = cluster;
		const paths: MeasuredPath[] = [
			{
				name: 'Lead Conversations Trigger',
				workflow: trigger,
				kind: 'benchTrigger',
				url: () => `${running.balancer.url}${triggerWebhookPath(TRIGGER_WEBHOOK_ID)}`,
				secret: () => sandbox.control.webhooks()[0].secret,
			},
		];
		const results: QueuePathResult[] = paths.map((p) => ({ path: p.name, bursts: [] }));
		// A warm-up burst per path, not counted: the first runs load code and caches.
		for (const path of paths)
			await burst(path, sink, running, { ...args, deliveries: Math.min(20, args.deliveries) }, -1);
		for (let round = 0; round < args.rounds; round++) {
			for (const [i, path] of paths.entries()) {
				log(`7: ${path.name}, round ${round + 1} of ${args.rounds}`);
				results[i].bursts.push(await burst(path, sink, running, args, round));
			}
		}
		return {
			startupSeconds: running.startupSeconds,
			paths: results,
			pendingPaths: [
				{
					path: 'Webhook node + Lead Conversations → Event → Verify',
					reason: "needs the action node's Verify Event operation, not in this build",
				},
			],
		};
	} finally {
		await cluster?.stop();
		await sink.close();
		await sandbox.close();
		rmSync(workDir, { recursive: true, force: true });
	}
}
