// 1. Request economy: requests sent (the sandbox's own request log) ÷ ⌈N/100⌉ for Return All,
// and ÷ ⌈L/100⌉ for a Limit. The HTTP Request node's count for Return All is taken beside ours.

import type { RequestLogEntry } from '../../sandbox';
import { startTestSandbox } from '../../harness/engine';
import {
	countLeads,
	PAGE_SIZE,
	runHttpRequestNode,
	runOurNode,
	type ClientOutcome,
	type Target,
} from '../lib/clients';

export interface EconomyArgs {
	sizes: number[];
	limits: number[];
	/** Leads in the sandbox while the limits are measured. */
	limitLeads: number;
}

export interface EconomyRow {
	client: 'node' | 'http';
	mode: 'returnAll' | 'limit';
	/** N for Return All, L for a limit. */
	n: number;
	requests: number;
	expected: number;
	received: number;
	distinct: number;
	status: string;
	error?: string;
	/** `limit` of each request, e.g. "100×2 + 50". */
	pageSizes: string;
	/** Filters are in the cursor: after page 1 only `cursor` and `limit` are sent. */
	onlyCursorAfterFirst: boolean;
	ms: number;
}

function pageSizes(requests: RequestLogEntry[]): string {
	const runs: Array<[string, number]> = [];
	for (const { query } of requests) {
		const size = query.limit ?? 'default';
		const last = runs[runs.length - 1];
		if (last && last[0] === size) last[1]++;
		else runs.push([size, 1]);
	}
	return runs.map(([size, count]) => (count === 1 ? size : `${size}×${count}`)).join(' + ');
}

function onlyCursorAfterFirst(requests: RequestLogEntry[]): boolean {
	return requests
		.slice(1)
		.every((entry) => Object.keys(entry.query).sort().join(',') === 'cursor,limit');
}

export async function economy(args: EconomyArgs): Promise<EconomyRow[]> {
	const sandbox = await startTestSandbox({ leads: args.sizes[0], rateLimit: 1e9 });
	const target: Target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full };
	const rows: EconomyRow[] = [];

	const measure = async (
		client: EconomyRow['client'],
		mode: EconomyRow['mode'],
		n: number,
		run: () => Promise<ClientOutcome>,
	) => {
		sandbox.control.clearRequests();
		const started = performance.now();
		const outcome = await run();
		const ms = performance.now() - started;
		const requests = sandbox.control
			.requests()
			.filter((entry) => entry.method === 'GET' && entry.path === '/v1/leads');
		const counted = countLeads(outcome.leads);
		rows.push({
			client,
			mode,
			n,
			requests: requests.length,
			expected: Math.ceil(n / PAGE_SIZE),
			received: counted.received,
			distinct: counted.distinct,
			status: outcome.status,
			error: outcome.error,
			pageSizes: pageSizes(requests),
			onlyCursorAfterFirst: onlyCursorAfterFirst(requests),
			ms,
		});
	};

	try {
		for (const size of args.sizes) {
			sandbox.control.reset({ leads: size });
			await measure('node', 'returnAll', size, () => runOurNode(target));
			await measure('http', 'returnAll', size, () => runHttpRequestNode(target));
		}
		sandbox.control.reset({ leads: args.limitLeads });
		for (const limit of args.limits) {
			await measure('node', 'limit', limit, () => runOurNode(target, { returnAll: false, limit }));
		}
	} finally {
		await sandbox.close();
	}
	return rows;
}
