// Signed deliveries sent to a running n8n, and what n8n's database says became of them: shared
// by the throughput (6b) and memory (6c) measures.

import { createHmac } from 'crypto';
import * as http from 'http';
import * as https from 'https';

import { queryN8nDatabase } from '../../harness/real-n8n/sqlite';
import { eventOfSize } from '../measures/signature';

/** What the sender sees of a burst. */
export interface SentBurst {
	/** Deliveries answered 2xx, and the others. */
	ok: number;
	failed: number;
	/** From the first delivery sent to the last answer. */
	answeredMs: number;
	startedAt: number;
}

/** What n8n's database adds: how many runs the burst started and when the last one ended. */
export interface BurstOutcome {
	/** Executions the burst started that finished successfully. */
	executions: number;
	/** From the first delivery sent to the end of the last execution it started. */
	processedMs: number;
	answeredPerSecond: number;
	/** Deliveries whose execution finished, per second: the throughput of the whole path. */
	perSecond: number;
}

export interface Burst extends SentBurst, BurstOutcome {
	/** n8n's CPU time for the burst (until idle again) per delivery answered 2xx, in ms. */
	cpuMsPerDelivery: number;
}

/** What every burst of a measure shares: the body size, and a sequence that keeps events distinct. */
export interface Sender {
	bodyBytes: number;
	sequence: { next: number };
}

/** Where a burst goes, and the secret its deliveries are signed with. */
export interface Receiver {
	url: string;
	secret: string;
}

/**
 * `concurrency` senders POST `count` signed deliveries to `url` (http, or https with the
 * self-signed certificate of a local balancer); counts the 2xx answers.
 */
export async function burst(
	receiver: Receiver,
	sender: Sender,
	count: number,
	concurrency: number,
): Promise<SentBurst> {
	const target = new URL(receiver.url);
	const client = target.protocol === 'https:' ? https : http;
	const agent = new client.Agent({
		keepAlive: true,
		maxSockets: concurrency,
		rejectUnauthorized: false,
	});
	let ok = 0;
	let failed = 0;
	const post = (body: Buffer) =>
		new Promise<number>((resolve) => {
			const req = client.request(
				target,
				{
					method: 'POST',
					agent,
					headers: {
						'Content-Type': 'application/json',
						'Content-Length': body.length,
						'X-Service-Signature': createHmac('sha256', receiver.secret).update(body).digest('hex'),
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
			const body = eventOfSize(sender.bodyBytes, ++sender.sequence.next, new Date().toISOString());
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
export async function waitUntilAccepting(receiver: Receiver, sender: Sender): Promise<void> {
	const deadline = Date.now() + 60_000;
	while (Date.now() < deadline) {
		if ((await burst(receiver, sender, 1, 1)).ok === 1) return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`${receiver.url} refused every delivery for a minute`);
}

export interface ExecutionRow {
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
export function completeBurst(
	sent: SentBurst,
	rows: ExecutionRow[],
	workflowId: string,
	until: number,
): BurstOutcome {
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
		executions: finished.length,
		processedMs,
		answeredPerSecond: (sent.ok / sent.answeredMs) * 1000,
		perSecond: (finished.length / processedMs) * 1000,
	};
}

/** The executions of these workflows, as n8n recorded them. */
export async function executionsOf(
	userFolder: string,
	workflowIds: string[],
): Promise<ExecutionRow[]> {
	return await queryN8nDatabase<ExecutionRow>(
		userFolder,
		`SELECT workflowId, startedAt, stoppedAt, status FROM execution_entity WHERE workflowId IN (${workflowIds.map(() => '?').join(', ')})`,
		workflowIds,
	);
}
