// 4. Rate-limited throughput. The sandbox's limit is scaled down (e.g. 50 requests per 2 s
// window) so that a Return All spans several windows:
//   (a) one client alone reads N leads;
//   (b) the same while another client spends the first `otherPerWindow` requests of every window
//       on the same key (a burst as each window opens), leaving the rest of each window to ours.
// Time is compared with the limit-optimal time: a client that sends each request the moment the
// limit allows, at the unthrottled speed of a bare fetch loop measured in the same process.

import type { RequestLogEntry, RunningSandbox } from '../../sandbox';
import { startTestSandbox } from '../../harness/engine';
import {
	bareFetchLoop,
	countLeads,
	PAGE_SIZE,
	runHttpRequestNode,
	runOurNode,
	warmUp,
	type ClientOutcome,
	type Target,
} from '../lib/clients';
import { collectGarbage } from '../lib/gc';
import { median } from '../lib/stats';

export type RateLimitedClient = 'node' | 'httpDefault' | 'httpCareful';

export interface RateLimitedArgs {
	scenario: 'a' | 'b';
	client: RateLimitedClient;
	reps: number;
	leads: number;
	limit: number;
	windowMs: number;
	/** Requests the other client sends at the opening of each window (scenario b). */
	otherPerWindow: number;
	/** The measured client starts this long after a window opens. */
	startOffsetMs: number;
	/** "Careful" HTTP Request settings. */
	careful: { requestIntervalMs: number; maxTries: number; waitBetweenTriesMs: number };
}

export interface RateLimitedRun {
	ms: number;
	limitOptimalMs: number;
	requests: number;
	ok: number;
	rateLimited: number;
	/** Most 429s our client received in one window. */
	maxRateLimitedPerWindow: number;
	windows: number;
	received: number;
	distinct: number;
	status: string;
	error?: string;
	/** Requests of the other client, and how many of them were refused. */
	otherRequests: number;
	otherRateLimited: number;
}

export interface RateLimitedResult {
	scenario: 'a' | 'b';
	client: RateLimitedClient;
	leads: number;
	/** Unthrottled ms per request of a bare fetch loop against this sandbox. */
	bareMsPerRequest: number;
	runs: RateLimitedRun[];
}

/**
 * Greedy schedule of a perfect client: a request goes out as soon as the window has budget left
 * (else at the next window's opening), and each takes `perRequestMs`.
 */
export function limitOptimalMs(
	startMs: number,
	requests: number,
	budgetPerWindow: number,
	windowMs: number,
	perRequestMs: number,
): number {
	let t = startMs;
	let window = Math.floor(t / windowMs);
	let used = 0;
	for (let i = 0; i < requests; i++) {
		const current = Math.floor(t / windowMs);
		if (current !== window) {
			window = current;
			used = 0;
		}
		if (used >= budgetPerWindow) {
			window++;
			t = window * windowMs;
			used = 0;
		}
		used++;
		t += perRequestMs;
	}
	return t - startMs;
}

async function sleepUntil(epochMs: number): Promise<void> {
	const wait = epochMs - Date.now();
	if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** The other client: `perWindow` concurrent requests as each window opens, until stopped. */
export function startOtherClient(
	target: Target,
	perWindow: number,
	windowMs: number,
	firstWindowStart: number,
) {
	let stopped = false;
	let timer: NodeJS.Timeout | undefined;
	const inFlight = new Set<Promise<unknown>>();
	const burst = () => {
		for (let i = 0; i < perWindow; i++) {
			const request = fetch(`${target.baseUrl}/agents?limit=1`, {
				headers: { 'X-API-Key': target.apiKey },
			})
				.then((response) => response.arrayBuffer())
				.catch(() => undefined);
			inFlight.add(request);
			void request.finally(() => inFlight.delete(request));
		}
	};
	const schedule = (windowStart: number) => {
		if (stopped) return;
		timer = setTimeout(
			() => {
				if (stopped) return;
				burst();
				schedule(windowStart + windowMs);
			},
			Math.max(0, windowStart + 1 - Date.now()),
		);
	};
	schedule(firstWindowStart);
	return async () => {
		stopped = true;
		if (timer) clearTimeout(timer);
		await Promise.all([...inFlight]);
	};
}

function runClientOnce(args: RateLimitedArgs, target: Target): Promise<ClientOutcome> {
	switch (args.client) {
		case 'node':
			return runOurNode(target);
		case 'httpDefault':
			return runHttpRequestNode(target);
		case 'httpCareful':
			return runHttpRequestNode(target, {
				requestIntervalMs: args.careful.requestIntervalMs,
				retry: {
					maxTries: args.careful.maxTries,
					waitBetweenTriesMs: args.careful.waitBetweenTriesMs,
				},
			});
	}
}

function isOurs(entry: RequestLogEntry): boolean {
	return entry.method === 'GET' && entry.path === '/v1/leads';
}

async function oneRun(args: RateLimitedArgs, bareMsPerRequest: number): Promise<RateLimitedRun> {
	const sandbox: RunningSandbox = await startTestSandbox({
		leads: args.leads,
		rateLimit: args.limit,
		windowMs: args.windowMs,
	});
	const target: Target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full };
	try {
		collectGarbage();
		// Start a little after a window opens, so every run sees the same phase.
		const windowStart = (Math.floor(Date.now() / args.windowMs) + 1) * args.windowMs;
		const stopOther =
			args.scenario === 'b'
				? startOtherClient(target, args.otherPerWindow, args.windowMs, windowStart)
				: async () => {};
		await sleepUntil(windowStart + args.startOffsetMs);

		const startedAt = Date.now();
		const started = performance.now();
		const outcome = await runClientOnce(args, target);
		const ms = performance.now() - started;
		await stopOther();

		const log = sandbox.control.requests();
		const ours = log.filter(isOurs);
		const others = log.filter((entry) => !isOurs(entry));
		const rateLimitedByWindow = new Map<number, number>();
		for (const entry of ours) {
			if (entry.status !== 429) continue;
			const window = Math.floor(entry.at / args.windowMs);
			rateLimitedByWindow.set(window, (rateLimitedByWindow.get(window) ?? 0) + 1);
		}
		const budget = args.scenario === 'b' ? args.limit - args.otherPerWindow : args.limit;
		const counted = countLeads(outcome.leads);
		return {
			ms,
			limitOptimalMs: limitOptimalMs(
				startedAt,
				Math.ceil(args.leads / PAGE_SIZE),
				budget,
				args.windowMs,
				bareMsPerRequest,
			),
			requests: ours.length,
			ok: ours.filter((entry) => entry.status === 200).length,
			rateLimited: ours.filter((entry) => entry.status === 429).length,
			maxRateLimitedPerWindow: Math.max(0, ...rateLimitedByWindow.values()),
			windows:
				Math.floor((startedAt + ms) / args.windowMs) - Math.floor(startedAt / args.windowMs) + 1,
			received: counted.received,
			distinct: counted.distinct,
			status: outcome.status,
			error: outcome.error,
			otherRequests: others.length,
			otherRateLimited: others.filter((entry) => entry.status === 429).length,
		};
	} finally {
		await sandbox.close();
	}
}

export async function rateLimited(args: RateLimitedArgs): Promise<RateLimitedResult> {
	// Unthrottled speed of the bare loop and a warm-up of the client, on a sandbox without limit.
	const free = await startTestSandbox({ leads: args.leads, rateLimit: 1e9 });
	const freeTarget: Target = { baseUrl: free.baseUrl, apiKey: free.keys.full };
	const bareTimes: number[] = [];
	let bareMsPerRequest: number;
	try {
		await bareFetchLoop(freeTarget);
		for (let i = 0; i < 3; i++) {
			const started = performance.now();
			const outcome = await bareFetchLoop(freeTarget);
			bareTimes.push((performance.now() - started) / Math.ceil(outcome.leads.length / PAGE_SIZE));
		}
		bareMsPerRequest = median(bareTimes);
		await warmUp(args.client === 'node' ? 'node' : 'http', freeTarget);
	} finally {
		await free.close();
	}

	const runs: RateLimitedRun[] = [];
	for (let rep = 0; rep < args.reps; rep++) runs.push(await oneRun(args, bareMsPerRequest));
	return {
		scenario: args.scenario,
		client: args.client,
		leads: args.leads,
		bareMsPerRequest,
		runs,
	};
}
