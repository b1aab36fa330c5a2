// 6b. Deliveries per second inside the real n8n through five paths on one instance: Webhook →
// Event: Verify → No Operation, the Lead Conversations Trigger → No Operation (subscribed by
// itself, and Manual with its secret in a credential), the check users build without the package
// (Webhook → Crypto → IF → No Operation) and Webhook → No Operation.
// Bursts of signed deliveries to one workflow at a time, order rotated, one at a time and several
// in flight, and the whole path timed from n8n's own database (the executions' start and stop),
// not only the answers.

import {
	burst,
	completeBurst,
	executionsOf,
	waitUntilAccepting,
	type Burst,
	type Receiver,
	type Sender,
	type SentBurst,
} from './deliveries';
import { cpuMsOf, waitUntilIdle } from './processStats';

export const DELIVERY_PATHS = ['verify', 'trigger', 'triggerManual', 'chain', 'webhook'] as const;
export type DeliveryPath = (typeof DELIVERY_PATHS)[number];

export interface WebhookThroughputArgs {
	/** Deliveries in flight at once; each level is measured for every path. */
	concurrencies: number[];
	/** Deliveries per measured burst. */
	deliveries: number;
	rounds: number;
	bodyBytes: number;
}

export interface ThroughputRound {
	round: number;
	concurrency: number;
	bursts: Record<DeliveryPath, Burst>;
}

export async function measureWebhookThroughput(options: {
	pid: number;
	userFolder: string;
	receivers: Record<DeliveryPath, Receiver>;
	workflowIds: Record<DeliveryPath, string>;
	args: WebhookThroughputArgs;
	log: (line: string) => void;
}): Promise<ThroughputRound[]> {
	const { args, pid, receivers } = options;
	const sender: Sender = { bodyBytes: args.bodyBytes, sequence: { next: 0 } };
	const warmUpCount = Math.max(10, Math.round(args.deliveries / 5));
	for (const path of DELIVERY_PATHS) {
		await waitUntilAccepting(receivers[path], sender);
		const check = await burst(
			receivers[path],
			sender,
			warmUpCount,
			Math.max(...args.concurrencies),
		);
		if (check.ok === 0)
			throw new Error(`Deliveries to ${receivers[path].url} are refused (${check.failed} failed)`);
		await waitUntilIdle(pid);
	}
	const sent: Array<{
		round: number;
		concurrency: number;
		path: DeliveryPath;
		sent: SentBurst & { cpuMsPerDelivery: number };
	}> = [];
	let turn = 0;
	for (let round = 0; round < args.rounds; round++) {
		for (const concurrency of args.concurrencies) {
			options.log(`6b: round ${round + 1} of ${args.rounds}, ${concurrency} in flight`);
			// Rotate which path goes first, so that a drift of the machine favours none.
			const order = DELIVERY_PATHS.map(
				(_, i) => DELIVERY_PATHS[(i + turn) % DELIVERY_PATHS.length],
			);
			turn++;
			for (const path of order) {
				const cpuBefore = cpuMsOf(pid);
				const one = await burst(receivers[path], sender, args.deliveries, concurrency);
				await waitUntilIdle(pid);
				const cpuMsPerDelivery = (cpuMsOf(pid) - cpuBefore) / Math.max(1, one.ok);
				sent.push({ round, concurrency, path, sent: { ...one, cpuMsPerDelivery } });
			}
		}
	}
	const end = Date.now();
	const ids = DELIVERY_PATHS.map((path) => options.workflowIds[path]);
	const rows = await executionsOf(options.userFolder, ids);
	// n8n is idle before the next burst starts, so a burst's executions all start before it.
	const completed = sent.map((entry, index) => ({
		...entry,
		burst: {
			...entry.sent,
			...completeBurst(
				entry.sent,
				rows,
				options.workflowIds[entry.path],
				sent[index + 1]?.sent.startedAt ?? end,
			),
		},
	}));
	const rounds: ThroughputRound[] = [];
	for (let round = 0; round < args.rounds; round++) {
		for (const concurrency of args.concurrencies) {
			const of = (path: DeliveryPath) =>
				completed.find(
					(entry) =>
						entry.round === round && entry.concurrency === concurrency && entry.path === path,
				)!.burst;
			rounds.push({
				round,
				concurrency,
				bursts: Object.fromEntries(DELIVERY_PATHS.map((path) => [path, of(path)])) as Record<
					DeliveryPath,
					Burst
				>,
			});
		}
	}
	return rounds;
}
