// 5. Memory of a Return All, each client in a fresh process against a data server in another
// process (so the server's own memory is not counted): peak RSS, heap growth at the peak and
// heap retained with the output still held (as n8n holds a node's output), against the size of
// the output as JSON and against a bare loop that holds nothing but the parsed leads.

import { startTestSandbox } from '../../harness/engine';
import { countLeads, runClient, warmUp, type ClientName, type Target } from '../lib/clients';
import { collectGarbage } from '../lib/gc';

export interface DataServerReady {
	target: Target;
}

/** A sandbox with N leads and no effective rate limit, serving until the parent stops it. */
export async function dataServer(args: { leads: number }): Promise<DataServerReady> {
	const sandbox = await startTestSandbox({ leads: args.leads, rateLimit: 1e9 });
	const stop = () => {
		sandbox.close().finally(() => process.exit(0));
	};
	process.on('SIGTERM', stop);
	process.on('disconnect', stop);
	return { target: { baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full } };
}

export interface MemoryArgs {
	client: ClientName;
	leads: number;
	target: Target;
}

export interface MemoryResult {
	client: ClientName;
	leads: number;
	received: number;
	distinct: number;
	status: string;
	error?: string;
	/** After modules, a warm-up and a full collection. */
	baselineRssBytes: number;
	baselineHeapBytes: number;
	/** Highest RSS sampled during the run (every few ms). */
	peakRssBytes: number;
	/** The kernel's high-water mark for the whole process life, start-up included. */
	maxRssBytes: number;
	/** Highest heap use sampled during the run, minus the baseline. */
	peakHeapGrowthBytes: number;
	/** Highest memory outside the JS heap (Buffers and other external memory) sampled, minus the baseline. */
	peakExternalGrowthBytes: number;
	/** Heap still used after the run and a full collection, output held, minus the baseline. */
	retainedHeapBytes: number;
	/** Memory outside the JS heap after the run and a full collection, minus the baseline. */
	retainedExternalBytes: number;
	/** The leads of the output written as JSON. */
	outputJsonBytes: number;
	ms: number;
}

const SAMPLE_EVERY_MS = 5;

export async function memory(args: MemoryArgs): Promise<MemoryResult> {
	await warmUp(args.client, args.target);
	collectGarbage();
	const baseline = process.memoryUsage();
	let peakHeap = baseline.heapUsed;
	let peakRss = baseline.rss;
	let peakExternal = baseline.external;
	const sample = () => {
		const { heapUsed, rss, external } = process.memoryUsage();
		if (heapUsed > peakHeap) peakHeap = heapUsed;
		if (rss > peakRss) peakRss = rss;
		if (external > peakExternal) peakExternal = external;
	};
	const sampler = setInterval(sample, SAMPLE_EVERY_MS);

	const started = performance.now();
	const outcome = await runClient(args.client, args.target);
	const ms = performance.now() - started;
	clearInterval(sampler);
	sample();
	const maxRssBytes = process.resourceUsage().maxRSS * 1024;

	collectGarbage();
	const retained = process.memoryUsage();
	// Measured last: the text itself takes memory.
	const outputJsonBytes = Buffer.byteLength(JSON.stringify(outcome.leads));
	const counted = countLeads(outcome.leads);
	return {
		client: args.client,
		leads: args.leads,
		received: counted.received,
		distinct: counted.distinct,
		status: outcome.status,
		error: outcome.error,
		baselineRssBytes: baseline.rss,
		baselineHeapBytes: baseline.heapUsed,
		peakRssBytes: peakRss,
		maxRssBytes,
		peakHeapGrowthBytes: peakHeap - baseline.heapUsed,
		peakExternalGrowthBytes: peakExternal - baseline.external,
		retainedHeapBytes: retained.heapUsed - baseline.heapUsed,
		retainedExternalBytes: retained.external - baseline.external,
		outputJsonBytes,
		ms,
	};
}
