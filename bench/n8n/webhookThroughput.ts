// 6b. Deliveries per second inside the real n8n through four paths on one instance: Webhook →
// Event: Verify → No Operation, the Lead Conversations Trigger → No Operation, the check users
// build without the package (Webhook → Crypto → IF → No Operation) and Webhook → No Operation.
// Bursts of signed deliveries to one workflow at a time, order rotated, one at a time and several
// in flight, and the whole path timed from n8n's own database (the executions' start and stop),
// not only the answers.

import { createHmac } from 'crypto';
import { Agent, request } from 'http';

import { queryN8nDatabase } from '../../harness/real-n8n/sqlite';
import { eventOfSize } from '../measures/signature';
import { waitUntilIdle } from './install';

export const DELIVERY_PATHS = ['verify', 'trigger', 'chain', 'webhook'] as const;
export type DeliveryPath = (typeof DELIVERY_PATHS)[number];

export interface WebhookThroughputArgs {
	/** Deliveries in flight at once; each level is measured for every path. */
	concurrencies: number[];
	/** Deliveries per measured burst. */
	deliveries: number;
	rounds: number;
	bodyBytes: number;
}

export interface Burst {
	/** Deliveries answered 2xx, and the others. */
	ok: number;
	failed: number;
	/** From the first delivery sent to the last answer. */
	answeredMs: number;
	/** Executions the burst started that finished successfully (from the database). */
	executions: number;
	/** From the first delivery sent to the end of the last execution it started. */
	processedMs: number;
	answeredPerSecond: number;
	/** Deliveries whose execution finished, per second: the throughput of the whole path. */
	perSecond: number;
	startedAt: number;
}

export interface ThroughputRound {
	round: number;
	concurrency: number;
	bursts: Record<DeliveryPath, Burst>;
}

type SentBurst = Pick<Burst, 'ok' | 'failed' | 'answeredMs' | 'startedAt'>;

interface Sender {
	signingSecret: string;
	args: WebhookThroughputArgs;
	sequence: { next: number };
}

/** `concurrency` senders POST `count` signed deliveries to `url`; counts the 2xx answers. */
async function burst(
	url: string,
	sender: Sender,
	count: number,
	concurrency: number,
): Promise<SentBurst> {
	const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
	const target = new URL(url);
	let ok = 0;
	let failed = 0;
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
						'X-Service-Signature': createHmac('sha256', sender.signingSecret)
							.update(body)
							.digest('hex'),
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
	let left = count;
	const startedAt = Date.now();
	const started = performance.now();
	const send = async () => {
		while (left > 0) {
			left--;
			// Timestamped now: the Verify path refuses events outside its replay window.
			const body = eventOfSize(
				sender.args.bodyBytes,
				++sender.sequence.next,
				new Date().toISOString(),
			);
			const status = await post(body);
			if (status >= 200 && status < 300) ok++;
			else failed++;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, send));
	const answeredMs = performance.now() - started;
	agent.destroy();
	return { ok, failed, answeredMs, startedAt };
}

/** Single deliveries until one is accepted: after a restart n8n registers webhooks a little late. */
async function waitUntilAccepting(url: string, sender: Sender): Promise<void> {
	const deadline = Date.now() + 60_000;
	while (Date.now() < deadline) {
		if ((await burst(url, sender, 1, 1)).ok === 1) return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`${url} refused every delivery for a minute`);
}

interface ExecutionRow {
	workflowId: string;
	startedAt: string;
	stoppedAt: string | null;
	status: string;
}

/** sqlite datetimes as n8n writes them: 'YYYY-MM-DD HH:MM:SS.SSS' in UTC. */
function epochOf(datetime: string): number {
	const iso = /[zZ]$|[+-]\d\d:\d\d$/.test(datetime) ? datetime : `${datetime.replace(' ', 'T')}Z`;
	return Date.parse(iso);
}

/** The executions a burst started: of its workflow, started from its first delivery until `until`. */
function completeBurst(
	sent: SentBurst,
	rows: ExecutionRow[],
	workflowId: string,
	until: number,
): Burst {
	const finished = rows.filter((row) => {
		const started = epochOf(row.startedAt);
		return (
			row.workflowId === workflowId &&
			started >= sent.startedAt - 5 &&
			started < until &&
			row.stoppedAt !== null &&
			row.status === 'success'
		);
	});
	const lastStop = Math.max(
		sent.startedAt,
		...finished.map((row) => epochOf(row.stoppedAt as string)),
	);
	const processedMs = lastStop - sent.startedAt;
	return {
		...sent,
		executions: finished.length,
		processedMs,
		answeredPerSecond: (sent.ok / sent.answeredMs) * 1000,
		perSecond: (finished.length / processedMs) * 1000,
	};
}

export async function measureWebhookThroughput(options: {
	pid: number;
	userFolder: string;
	urls: Record<DeliveryPath, string>;
	workflowIds: Record<DeliveryPath, string>;
	signingSecret: string;
	args: WebhookThroughputArgs;
	log: (line: string) => void;
}): Promise<ThroughputRound[]> {
	const { args, pid, urls } = options;
	const sender: Sender = { signingSecret: options.signingSecret, args, sequence: { next: 0 } };
	const warmUpCount = Math.max(10, Math.round(args.deliveries / 5));
	for (const path of DELIVERY_PATHS) {
		await waitUntilAccepting(urls[path], sender);
		const check = await burst(urls[path], sender, warmUpCount, Math.max(...args.concurrencies));
		if (check.ok === 0)
			throw new Error(`Deliveries to ${urls[path]} are refused (${check.failed} failed)`);
		await waitUntilIdle(pid);
	}
	const sent: Array<{ round: number; concurrency: number; path: DeliveryPath; sent: SentBurst }> =
		[];
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
				const one = await burst(urls[path], sender, args.deliveries, concurrency);
				await waitUntilIdle(pid);
				sent.push({ round, concurrency, path, sent: one });
			}
		}
	}
	const end = Date.now();
	const ids = DELIVERY_PATHS.map((path) => options.workflowIds[path]);
	const rows = await queryN8nDatabase<ExecutionRow>(
		options.userFolder,
		`SELECT workflowId, startedAt, stoppedAt, status FROM execution_entity WHERE workflowId IN (${ids.map(() => '?').join(', ')})`,
		ids,
	);
	// n8n is idle before the next burst starts, so a burst's executions all start before it.
	const completed = sent.map((entry, index) => ({
		...entry,
		burst: completeBurst(
			entry.sent,
			rows,
			options.workflowIds[entry.path],
			sent[index + 1]?.sent.startedAt ?? end,
		),
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
