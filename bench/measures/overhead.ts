// 2 and 3. Client overhead and the HTTP Request node: Return All of the same recorded pages,
// answered from memory by the replay server, by each client in turn, in the same process.
// Repetitions rotate the order of the clients so that drift of a shared machine spreads evenly.

import { startTestSandbox } from '../../harness/engine';
import { collectGarbage } from '../lib/gc';
import { countLeads, runClient, warmUp, type ClientName, type Target } from '../lib/clients';
import { recordPages, startReplayServer } from '../lib/replayServer';

export interface OverheadArgs {
	leads: number;
	reps: number;
	clients: ClientName[];
}

export interface OverheadSample {
	client: ClientName;
	rep: number;
	/** Wall time of the whole run. */
	ms: number;
	/** CPU time of this process during the run (client and replay server, user + system). */
	cpuMs: number;
	requests: number;
	items: number;
	received: number;
	distinct: number;
	status: string;
	error?: string;
}

export interface OverheadResult {
	leads: number;
	pages: number;
	samples: OverheadSample[];
}

function rotate<T>(values: T[], by: number): T[] {
	const shift = by % values.length;
	return [...values.slice(shift), ...values.slice(0, shift)];
}

export async function overhead(args: OverheadArgs): Promise<OverheadResult> {
	const sandbox = await startTestSandbox({ leads: args.leads, rateLimit: 1e9 });
	const source: Target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full };
	const recorded = await recordPages(source);
	await sandbox.close();
	if (recorded.leads !== args.leads) {
		throw new Error(`Recorded ${recorded.leads} leads, expected ${args.leads}`);
	}

	const replay = await startReplayServer(recorded, source.apiKey);
	const samples: OverheadSample[] = [];
	try {
		for (const client of args.clients) {
			await warmUp(client, replay.target);
			await runClient(client, replay.target);
		}
		for (let rep = 0; rep < args.reps; rep++) {
			for (const client of rotate(args.clients, rep)) {
				collectGarbage();
				replay.resetRequests();
				const started = performance.now();
				const cpuBefore = process.cpuUsage();
				const outcome = await runClient(client, replay.target);
				const cpu = process.cpuUsage(cpuBefore);
				const ms = performance.now() - started;
				const counted = countLeads(outcome.leads);
				samples.push({
					client,
					rep,
					ms,
					cpuMs: (cpu.user + cpu.system) / 1000,
					requests: replay.requests(),
					items: outcome.items,
					received: counted.received,
					distinct: counted.distinct,
					status: outcome.status,
					error: outcome.error,
				});
			}
		}
	} finally {
		await replay.close();
	}
	return { leads: recorded.leads, pages: recorded.pages.size, samples };
}
