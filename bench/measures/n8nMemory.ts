// 6c. n8n's memory while it takes a burst of signed deliveries: the resident memory (RSS) of the
// one n8n process, sampled from /proc from the first delivery until n8n is idle again (every
// execution done), for the trigger → No Operation and n8n's Webhook → No Operation. Each burst
// gets a freshly started n8n, since a process rarely gives memory back; the order alternates
// (trigger, Webhook, Webhook, trigger, …) so that a drift of the machine favours neither.

import { burst, completeBurst, executionsOf, waitUntilAccepting } from '../n8n/deliveries';
import { n8nVersions } from '../n8n/install';
import { rssBytesOf, waitUntilIdle } from '../n8n/processStats';
import { prepareBenchN8n, receiversOf } from '../n8n/setup';
import { WORKFLOW_IDS } from '../n8n/workflows';

export const MEMORY_PATHS = ['trigger', 'webhook'] as const;
export type MemoryPath = (typeof MEMORY_PATHS)[number];

export interface N8nMemoryArgs {
	deliveries: number;
	concurrency: number;
	/** Bursts per path, each in a fresh n8n. */
	reps: number;
	bodyBytes: number;
	sampleMs: number;
}

export interface MemoryBurst {
	path: MemoryPath;
	rep: number;
	/** After start-up and a short warm-up, just before the burst. */
	baselineRssBytes: number;
	/** The highest RSS sampled from the burst's first delivery until n8n was idle. */
	peakRssBytes: number;
	ok: number;
	failed: number;
	executions: number;
	answeredPerSecond: number;
	/** Executions finished per second, from the first delivery to the last execution. */
	perSecond: number;
}

export interface N8nMemoryResult {
	n8nVersion: string;
	args: N8nMemoryArgs;
	bursts: MemoryBurst[];
}

/** trigger, webhook, webhook, trigger, …: each pair of repetitions starts with the other path. */
export function alternatingOrder(reps: number): Array<{ rep: number; path: MemoryPath }> {
	return Array.from({ length: reps }, (_, rep) =>
		(rep % 2 === 0 ? MEMORY_PATHS : [...MEMORY_PATHS].reverse()).map((path) => ({ rep, path })),
	).flat();
}

/** Samples a process's RSS every `everyMs` until stopped; returns the highest seen. */
function watchPeakRss(pid: number, everyMs: number): { stop(): number } {
	let peak = rssBytesOf(pid);
	const timer = setInterval(() => {
		peak = Math.max(peak, rssBytesOf(pid));
	}, everyMs);
	return {
		stop() {
			clearInterval(timer);
			return Math.max(peak, rssBytesOf(pid));
		},
	};
}

export async function n8nMemory(
	args: N8nMemoryArgs,
	log: (line: string) => void,
): Promise<N8nMemoryResult> {
	// The Return All workflows are not used here: a few recorded pages are enough.
	const bench = await prepareBenchN8n(100, log);
	const sender = { bodyBytes: args.bodyBytes, sequence: { next: 0 } };
	const bursts: MemoryBurst[] = [];
	try {
		for (const { rep, path } of alternatingOrder(args.reps)) {
			log(`6c: ${path}, burst ${rep + 1} of ${args.reps}, in a fresh n8n`);
			const n8n = await bench.start();
			try {
				const pid = n8n.process.pid as number;
				const receiver = receiversOf(n8n, bench)[path];
				await waitUntilAccepting(receiver, sender);
				await burst(receiver, sender, 20, args.concurrency);
				await waitUntilIdle(pid);
				const baselineRssBytes = rssBytesOf(pid);
				const watch = watchPeakRss(pid, args.sampleMs);
				const sent = await burst(receiver, sender, args.deliveries, args.concurrency);
				// A backlog may still be running after the last answer: wait for it, still sampling.
				await waitUntilIdle(pid, 900_000);
				const peakRssBytes = watch.stop();
				const rows = await executionsOf(bench.userFolder, [WORKFLOW_IDS[path]]);
				const done = completeBurst(sent, rows, WORKFLOW_IDS[path], Date.now());
				bursts.push({
					path,
					rep,
					baselineRssBytes,
					peakRssBytes,
					ok: sent.ok,
					failed: sent.failed,
					executions: done.executions,
					answeredPerSecond: done.answeredPerSecond,
					perSecond: done.perSecond,
				});
			} finally {
				await n8n.stop();
			}
		}
	} finally {
		await bench.close();
	}
	return { n8nVersion: n8nVersions().n8n, args, bursts };
}
