// 9. Keeping a spreadsheet in sync (New or Updated Lead): requests per poll at each account
// size (target ⌈N/100⌉), the position's size between polls and right after changes, one pass over
// the largest account under the real 1,000/min limit while another client spends its share, polled
// once a window (÷ the fastest the key's reserve allows), and the lag from a change to its item.

import { startTestSandbox } from '../../harness/engine';
import { createPollHarness, type PollHarness } from '../../harness/engine/poll';
import type { RunningSandbox } from '../../sandbox';
import { KEY_RESERVE } from '../../nodes/LeadConversationsPollTrigger/pollCost';
import { limitOptimalMs, startOtherClient } from './rateLimited';

export interface SyncArgs {
	sizes: number[];
	/** Leads changed before the poll that announces them. */
	changes: number;
	limited: { leads: number; limit: number; windowMs: number; otherPerWindow: number };
	lag: { leads: number; pollEveryMs: number; changes: number };
}

export interface SyncRow {
	leads: number;
	idleRequests: number;
	idleMs: number;
	changedRequests: number;
	items: number;
	/** JSON bytes n8n stores: between quiet polls, right after the changes, and after the next poll. */
	bytesIdle: number;
	bytesAfterChanges: number;
	bytesSettled: number;
}

export interface SyncLimited {
	leads: number;
	limit: number;
	windowMs: number;
	otherPerWindow: number;
	requests: number;
	/** Polls, one at the start of each window, until the pass was complete. */
	polls: number;
	answers429: number;
	otherRequests: number;
	ms: number;
	limitOptimalMs: number;
	ok: boolean;
	error?: string;
}

export interface SyncLag {
	pollEveryMs: number;
	leads: number;
	changes: number;
	announcedOnce: number;
	medianMs: number;
	maxMs: number;
}

export interface SyncResult {
	rows: SyncRow[];
	limited: SyncLimited;
	lag: SyncLag;
}

const CHANGED = { event: 'leadChanged' };
const bytes = (trigger: PollHarness) => Buffer.byteLength(JSON.stringify(trigger.stored));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Past the Date header's second and the margin: the next pass starts after every change. */
const SETTLE_MS = 3_200;

async function counted(sandbox: RunningSandbox, trigger: PollHarness) {
	const before = sandbox.control.requests().length;
	const started = performance.now();
	const result = await trigger.poll();
	if (result.error) throw result.error;
	return {
		requests: sandbox.control.requests().length - before,
		items: result.items?.length ?? 0,
		ms: performance.now() - started,
	};
}

function alphaIds(sandbox: RunningSandbox): string[] {
	return sandbox.control
		.state()
		.leads.filter((lead) => lead.organization_id === 'org_alpha')
		.map((lead) => lead.id);
}

async function perSize(sandbox: RunningSandbox, leads: number, changes: number): Promise<SyncRow> {
	sandbox.control.reset({ leads });
	const credentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
	const trigger = createPollHarness(CHANGED, credentials);
	await trigger.poll();
	await sleep(SETTLE_MS);
	await trigger.poll();
	const idle = await counted(sandbox, trigger);
	const bytesIdle = bytes(trigger);
	const ids = alphaIds(sandbox);
	for (let i = 0; i < changes; i++) sandbox.control.qualifyLead(ids[(i * 7919) % ids.length], 80);
	const changed = await counted(sandbox, trigger);
	const bytesAfterChanges = bytes(trigger);
	await sleep(SETTLE_MS);
	await trigger.poll();
	return {
		leads,
		idleRequests: idle.requests,
		idleMs: idle.ms,
		changedRequests: changed.requests,
		items: changed.items,
		bytesIdle,
		bytesAfterChanges,
		bytesSettled: bytes(trigger),
	};
}

async function underTheLimit(args: SyncArgs['limited'], msPerPage: number): Promise<SyncLimited> {
	const sandbox = await startTestSandbox({ leads: args.leads, rateLimit: 1e9 });
	try {
		const credentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
		// The baseline first, without a limit; the measured poll is an ordinary one.
		const trigger = createPollHarness(CHANGED, credentials);
		await trigger.poll();
		sandbox.control.setRateLimit(args.limit, args.windowMs);
		const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full };
		const windowStart = (Math.floor(Date.now() / args.windowMs) + 1) * args.windowMs;
		const stopOther = startOtherClient(target, args.otherPerWindow, args.windowMs, windowStart);
		await sleep(windowStart + 100 - Date.now());
		sandbox.control.clearRequests();
		const startedAt = Date.now();
		const started = performance.now();
		// A poll leaves the key's reserve to others and the next continues: poll as Poll Times
		// "every minute" would, at the start of each window, until the pass is complete.
		let result = await trigger.poll();
		let polls = 1;
		const passOpen = () => 'pass' in ((trigger.position.changes ?? {}) as object);
		while (result.error === undefined && passOpen() && polls < 50) {
			await sleep(args.windowMs - ((Date.now() - windowStart) % args.windowMs) + 100);
			result = await trigger.poll();
			polls++;
		}
		const ms = performance.now() - started;
		await stopOther();
		const log = sandbox.control.requests();
		const ours = log.filter((entry) => entry.path === '/v1/leads');
		return {
			...args,
			requests: ours.length,
			polls,
			answers429: ours.filter((entry) => entry.status === 429).length,
			otherRequests: log.length - ours.length,
			ms,
			// What the reserve leaves a pass: the window less the other client's share and the
			// reserve, plus the page read with exactly the reserve left.
			limitOptimalMs: limitOptimalMs(
				startedAt,
				Math.ceil(args.leads / 100),
				args.limit - args.otherPerWindow - KEY_RESERVE + 1,
				args.windowMs,
				msPerPage,
			),
			ok: result.error === undefined,
			error: result.error?.message,
		};
	} finally {
		await sandbox.close();
	}
}

/** Polls every `pollEveryMs` while leads change at random moments; lag = change → its item. */
async function lagOfChanges(args: SyncArgs['lag']): Promise<SyncLag> {
	const sandbox = await startTestSandbox({ leads: args.leads, rateLimit: 1e9 });
	try {
		const credentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
		const trigger = createPollHarness(CHANGED, credentials);
		await trigger.poll();
		const ids = alphaIds(sandbox);
		const changedAt = new Map<string, number>();
		const lags: number[] = [];
		const announced = new Map<string, number>();
		let stop = false;
		let extraPolls = 0;
		const polling = (async () => {
			while (!stop || (changedAt.size > 0 && extraPolls++ < 5)) {
				await sleep(args.pollEveryMs);
				const { items } = await trigger.poll();
				const now = Date.now();
				for (const item of items ?? []) {
					const key = `${String(item.id)} ${String(item.updated_at)}`;
					announced.set(key, (announced.get(key) ?? 0) + 1);
					const at = changedAt.get(key);
					if (at !== undefined) lags.push(now - at);
					changedAt.delete(key);
				}
			}
		})();
		for (let i = 0; i < args.changes; i++) {
			await sleep(Math.random() * (args.pollEveryMs / 2));
			const lead = sandbox.control.qualifyLead(ids[i % ids.length], 50 + (i % 50));
			changedAt.set(`${lead.id} ${lead.updated_at}`, Date.now());
		}
		stop = true;
		await polling;
		lags.sort((a, b) => a - b);
		return {
			pollEveryMs: args.pollEveryMs,
			leads: args.leads,
			changes: args.changes,
			announcedOnce: [...announced.values()].filter((count) => count === 1).length,
			medianMs: lags[Math.floor(lags.length / 2)] ?? 0,
			maxMs: lags.at(-1) ?? 0,
		};
	} finally {
		await sandbox.close();
	}
}

export async function sync(args: SyncArgs): Promise<SyncResult> {
	const sandbox = await startTestSandbox({ leads: args.sizes[0], rateLimit: 1e9 });
	const rows: SyncRow[] = [];
	try {
		for (const leads of args.sizes) rows.push(await perSize(sandbox, leads, args.changes));
	} finally {
		await sandbox.close();
	}
	const largest = rows.find((row) => row.leads === args.limited.leads) ?? rows.at(-1)!;
	const msPerPage = largest.idleMs / Math.max(1, largest.idleRequests);
	return {
		rows,
		limited: await underTheLimit(args.limited, msPerPage),
		lag: await lagOfChanges(args.lag),
	};
}
