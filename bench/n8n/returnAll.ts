// 2b and 3b. Return All inside the real n8n: the Lead Conversations node and the HTTP Request
// node, each behind a webhook answered when the run ends, reading the replay server's pages;
// a webhook-only workflow gives the fixed cost of starting and answering a run, and a bare fetch
// loop (in the bench's own process) the cost of the pages themselves.

import { request } from 'http';

import { bareFetchLoop, type Target } from '../lib/clients';
import type { ReplayServer } from '../lib/replayServer';
import { waitUntilIdle } from './processStats';

export type ReturnAllPath = 'bare' | 'empty' | 'node' | 'http';

export interface ReturnAllSample {
	path: ReturnAllPath;
	rep: number;
	ms: number;
	requests: number;
	status: number;
}

export interface ReturnAllInN8nResult {
	leads: number;
	pages: number;
	samples: ReturnAllSample[];
}

function post(url: string, timeoutMs = 300_000): Promise<number> {
	return new Promise((resolve) => {
		const req = request(
			url,
			{ method: 'POST', headers: { 'Content-Type': 'application/json' }, timeout: timeoutMs },
			(res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode ?? 0));
			},
		);
		req.on('error', () => resolve(0));
		req.on('timeout', () => req.destroy());
		req.end('{}');
	});
}

function rotate<T>(values: T[], by: number): T[] {
	const shift = by % values.length;
	return [...values.slice(shift), ...values.slice(0, shift)];
}

export async function measureReturnAllInN8n(options: {
	pid: number;
	urls: Record<Exclude<ReturnAllPath, 'bare'>, string>;
	replay: ReplayServer;
	replayTarget: Target;
	leads: number;
	pages: number;
	reps: number;
	log: (line: string) => void;
}): Promise<ReturnAllInN8nResult> {
	const run = async (path: ReturnAllPath): Promise<{ ms: number; status: number }> => {
		const started = performance.now();
		if (path === 'bare') {
			const outcome = await bareFetchLoop(options.replayTarget);
			return { ms: performance.now() - started, status: outcome.status === 'success' ? 200 : 0 };
		}
		const status = await post(options.urls[path]);
		return { ms: performance.now() - started, status };
	};
	const paths: ReturnAllPath[] = ['bare', 'empty', 'node', 'http'];
	for (const path of paths) {
		await run(path);
		await waitUntilIdle(options.pid);
	}
	const samples: ReturnAllSample[] = [];
	for (let rep = 0; rep < options.reps; rep++) {
		options.log(`3b: repetition ${rep + 1} of ${options.reps}`);
		for (const path of rotate(paths, rep)) {
			options.replay.resetRequests();
			const { ms, status } = await run(path);
			samples.push({ path, rep, ms, status, requests: options.replay.requests() });
			await waitUntilIdle(options.pid);
		}
	}
	return { leads: options.leads, pages: options.pages, samples };
}
