import { createHmac } from 'crypto';

import type { RunningSandbox } from '../../../sandbox';
import type { RunSink, SinkRecord } from '../../../harness/queue/sink';
import { httpCall, type HttpResponse } from '../../../harness/real-n8n/http';
import { waitFor } from '../../../harness/real-n8n/processes';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Events a second in the suite's streams: what this cluster (n8n 2.41.1, main + 2 workers + 2
 * webhook processes on 2 cores) answers promptly while the workers run the executions. Measured:
 * 5/s answered in 39 ms median (388 ms max); at 10/s answers grew past the service's 10 s, which
 * then retries, and a retry of an event already run on the other webhook process runs it again.
 */
export const STREAM_PER_SECOND = 5;
/** Events of each stream (points 2, 3 and 7). */
export const STREAM_EVENTS = 100;

/** One event's identity across its retries: what the service sends again byte for byte. */
export function eventKey(record: Record<string, unknown>): string {
	return `${String(record.event)}|${String(record.id)}|${String(record.timestamp)}`;
}

export function keyOfBody(body: string): string {
	const payload = JSON.parse(body) as { event: string; timestamp: string; data: { id: string } };
	return eventKey({ event: payload.event, id: payload.data?.id, timestamp: payload.timestamp });
}

/** Runs per event key among the sink's records of one kind. */
export function runsPerEvent(
	sink: RunSink,
	kind: string,
	keep: (r: SinkRecord) => boolean = () => true,
) {
	const counts = new Map<string, number>();
	for (const record of sink.of(kind).filter(keep)) {
		const key = eventKey(record);
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return counts;
}

export interface RunTally {
	events: number;
	runs: number;
	/** Events with no run. */
	missing: string[];
	/** Runs beyond the first of each event. */
	extra: number;
}

export function tally(expectedKeys: string[], counts: Map<string, number>): RunTally {
	const expected = new Set(expectedKeys);
	let runs = 0;
	let extra = 0;
	for (const [key, count] of counts) {
		if (!expected.has(key)) continue;
		runs += count;
		extra += count - 1;
	}
	return {
		events: expected.size,
		runs,
		missing: expectedKeys.filter((key) => !counts.has(key)),
		extra,
	};
}

/**
 * Waits until the sink has stopped growing for `quietMs` (the workers have drained the queue)
 * and at least `atLeast` records of `kind` arrived.
 */
export async function waitForQuiet(
	sink: RunSink,
	kind: string,
	atLeast: number,
	{ quietMs = 4_000, timeoutMs = 120_000 } = {},
) {
	let last = -1;
	let since = Date.now();
	await waitFor(
		`${atLeast} run(s) of ${kind}, then quiet`,
		() => {
			const now = sink.of(kind).length;
			if (now !== last) {
				last = now;
				since = Date.now();
				return undefined;
			}
			return now >= atLeast && Date.now() - since >= quietMs ? true : undefined;
		},
		{ timeoutMs, intervalMs: 250 },
	);
}

/**
 * Waits until every key has a run (or `timeoutMs` passed) and then until no run of these keys
 * arrived for `quietMs` (late duplicates get their chance to show). Never throws: the caller
 * asserts on what arrived.
 */
export async function waitForRunsOf(
	keys: string[],
	counts: () => Map<string, number>,
	{ quietMs = 3_000, timeoutMs = 120_000 } = {},
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	const total = () => {
		const now = counts();
		return keys.reduce((sum, key) => sum + (now.get(key) ?? 0), 0);
	};
	while (Date.now() < deadline && !keys.every((key) => counts().has(key))) await sleep(250);
	let last = total();
	let since = Date.now();
	while (Date.now() - since < quietMs && Date.now() < deadline + quietMs) {
		await sleep(250);
		const now = total();
		if (now !== last) {
			last = now;
			since = Date.now();
		}
	}
}

/**
 * Makes `count` events happen at `perSecond` (`act` makes the i-th and returns what identifies
 * it), calling `atHalf` once half-way; returns what `act` returned.
 */
export async function streamEvents<T>(
	count: number,
	perSecond: number,
	act: (i: number) => T,
	atHalf?: () => void,
): Promise<T[]> {
	const made: T[] = [];
	const started = Date.now();
	for (let i = 0; i < count; i++) {
		const due = started + (i * 1000) / perSecond;
		if (due > Date.now()) await sleep(due - Date.now());
		made.push(act(i));
		if (i === Math.floor(count / 2) && atHalf) atHalf();
	}
	return made;
}

/** Creates `count` channel leads (one lead.created event each) at `perSecond`; returns their IDs. */
export async function streamLeadEvents(
	sandbox: RunningSandbox,
	count: number,
	perSecond: number,
	atHalf?: () => void,
): Promise<string[]> {
	return await streamEvents(
		count,
		perSecond,
		() => sandbox.control.createChannelLead({ channel: 'web_form' }).id,
		atHalf,
	);
}

/** Keys of the events the sandbox delivered (first attempts and retries) to one subscription. */
export function deliveredEventKeys(sandbox: RunningSandbox, subscriptionId: string): string[] {
	const keys = new Set<string>();
	for (const delivery of sandbox.control.deliveries()) {
		if (delivery.subscriptionId === subscriptionId && delivery.event !== 'raw') {
			keys.add(keyOfBody(delivery.body));
		}
	}
	return [...keys];
}

/** Keys of the lead.created deliveries the sandbox made for these leads. */
export function keysOfLeads(sandbox: RunningSandbox, leadIds: string[]): string[] {
	const wanted = new Set(leadIds);
	const keys = new Set<string>();
	for (const delivery of sandbox.control.deliveries()) {
		if (delivery.event !== 'lead.created') continue;
		const key = keyOfBody(delivery.body);
		if (wanted.has(key.split('|')[1])) keys.add(key);
	}
	return [...keys];
}

/** Events the service counts as delivered: at least one attempt answered 2xx. */
export function deliveredKeys(sandbox: RunningSandbox, subscriptionId?: string): string[] {
	const keys = new Set<string>();
	for (const delivery of sandbox.control.deliveries()) {
		if (!delivery.ok || delivery.event === 'raw') continue;
		if (subscriptionId && delivery.subscriptionId !== subscriptionId) continue;
		keys.add(keyOfBody(delivery.body));
	}
	return [...keys];
}

/** A lead.created payload as the service would send it now, signed with `secret`. */
export function signedEvent(secret: string, leadId: string, timestamp = new Date().toISOString()) {
	const body = JSON.stringify({
		event: 'lead.created',
		timestamp,
		organization_id: 'org_alpha',
		data: {
			id: leadId,
			name: `Queue Lead ${leadId}`,
			phone: '+5491100999999',
			score: 0,
			intent: 'unknown',
			vehicle_interest: null,
			channel: 'web_form',
			status: 'new',
		},
	});
	const signature = createHmac('sha256', secret).update(body).digest('hex');
	return { body, signature, key: eventKey({ event: 'lead.created', id: leadId, timestamp }) };
}

export function post(
	url: string,
	body: string,
	headers: Record<string, string> = {},
): Promise<HttpResponse> {
	return httpCall('POST', url, {
		body,
		headers: { 'content-type': 'application/json', ...headers },
		timeoutMs: 20_000,
	});
}
