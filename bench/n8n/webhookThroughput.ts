// 6b. Deliveries per second through the Lead Conversations Trigger inside the real n8n, against
// n8n's plain Webhook node on the same instance: bursts of signed deliveries to one workflow at
// a time, alternating, and the whole path timed from n8n's own database (the executions'
// start and stop), not only the answers.

import { createHmac } from 'crypto';
import { Agent, request } from 'http';

import { queryN8nDatabase } from '../../harness/real-n8n/sqlite';
import { eventOfSize } from '../measures/signature';
import { waitUntilIdle } from './install';
import { WORKFLOW_IDS } from './workflows';

export interface WebhookThroughputArgs {
	concurrency: number;
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
	trigger: Burst;
	webhook: Burst;
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
			const status = await post(eventOfSize(sender.args.bodyBytes, ++sender.sequence.next));
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
	triggerUrl: string;
	webhookUrl: string;
	signingSecret: string;
	args: WebhookThroughputArgs;
	log: (line: string) => void;
}): Promise<ThroughputRound[]> {
	const { args, pid } = options;
	const sender: Sender = { signingSecret: options.signingSecret, args, sequence: { next: 0 } };
	const warmUpCount = Math.max(10, Math.round(args.deliveries / 5));
	for (const url of [options.triggerUrl, options.webhookUrl]) {
		await waitUntilAccepting(url, sender);
		const check = await burst(url, sender, warmUpCount, args.concurrency);
		if (check.ok === 0)
			throw new Error(`Deliveries to ${url} are refused (${check.failed} failed)`);
		await waitUntilIdle(pid);
	}
	const one = async (url: string) => {
		const sent = await burst(url, sender, args.deliveries, args.concurrency);
		await waitUntilIdle(pid);
		return sent;
	};
	const sent: Array<{ trigger: SentBurst; webhook: SentBurst; end: number }> = [];
	for (let round = 0; round < args.rounds; round++) {
		options.log(`6b: round ${round + 1} of ${args.rounds}`);
		// Alternate which goes first, so that a drift of the machine does not favour one.
		if (round % 2 === 0) {
			const trigger = await one(options.triggerUrl);
			const webhook = await one(options.webhookUrl);
			sent.push({ trigger, webhook, end: Date.now() });
		} else {
			const webhook = await one(options.webhookUrl);
			const trigger = await one(options.triggerUrl);
			sent.push({ trigger, webhook, end: Date.now() });
		}
	}
	const rows = await queryN8nDatabase<ExecutionRow>(
		options.userFolder,
		'SELECT workflowId, startedAt, stoppedAt, status FROM execution_entity WHERE workflowId IN (?, ?)',
		[WORKFLOW_IDS.trigger, WORKFLOW_IDS.webhook],
	);
	// n8n is idle before the next burst starts, so a burst's executions all start before it.
	return sent.map((round) => ({
		trigger: completeBurst(
			round.trigger,
			rows,
			WORKFLOW_IDS.trigger,
			round.trigger.startedAt < round.webhook.startedAt ? round.webhook.startedAt : round.end,
		),
		webhook: completeBurst(
			round.webhook,
			rows,
			WORKFLOW_IDS.webhook,
			round.webhook.startedAt < round.trigger.startedAt ? round.trigger.startedAt : round.end,
		),
	}));
}
