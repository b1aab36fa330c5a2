import { createHash } from 'crypto';

import type { BalancedRequest } from '../../../harness/queue/balancer';
import { eventKey, keyOfBody } from './runs';
import { suite } from './suite';

// Where the balancer sent each event's attempts, for the figures of the duplicate tests: how many
// events were retried, how many retries went to the other webhook process, how many came after
// the event's first run had finished, and what n8n answered.

export interface Routing {
	/** Events with more than one attempt that reached a webhook process. */
	retried: number;
	/** Of those, events whose second attempt went to the other process. */
	otherProcess: number;
	/** Of those, events whose second attempt came after their first run had reported. */
	afterFirstRun: number;
	/** Answers of n8n other than 2xx (the balancer's own 502s not counted). */
	errorAnswers: number;
}

function firstRunTimes(kind: string): Map<string, number> {
	const first = new Map<string, number>();
	for (const record of suite.sink.of(kind)) {
		const key = eventKey(record);
		if (!first.has(key) || first.get(key)! > record.at) first.set(key, record.at);
	}
	return first;
}

/** Routing of the attempts the balancer saw on `path` (e.g. `/webhook/...`), runs of `kind`. */
export function routingOf(path: string, kind: string): Routing {
	const byBody = new Map<string, BalancedRequest[]>();
	for (const entry of suite.cluster.balancer.log) {
		if (!entry.path.startsWith(path) || entry.backend < 0) continue;
		byBody.set(entry.bodyKey, [...(byBody.get(entry.bodyKey) ?? []), entry]);
	}
	const bodyToKey = new Map<string, string>();
	for (const delivery of suite.sandbox.control.deliveries()) {
		if (delivery.event === 'raw') continue;
		const digest = createHash('sha256').update(delivery.body).digest('hex');
		bodyToKey.set(digest, keyOfBody(delivery.body));
	}
	const firstRunAt = firstRunTimes(kind);
	const routing: Routing = { retried: 0, otherProcess: 0, afterFirstRun: 0, errorAnswers: 0 };
	for (const [bodyKey, entries] of byBody) {
		routing.errorAnswers += entries.filter((e) => e.status < 200 || e.status >= 300).length;
		if (entries.length < 2) continue;
		routing.retried++;
		if (entries[1].backend !== entries[0].backend) routing.otherProcess++;
		const ranAt = firstRunAt.get(bodyToKey.get(bodyKey) ?? '');
		if (ranAt !== undefined && entries[1].at > ranAt) routing.afterFirstRun++;
	}
	return routing;
}

export function describeRouting(routing: Routing): string {
	return `${routing.retried} retried, ${routing.otherProcess} of them on the other process, ${routing.afterFirstRun} after the first run had finished; ${routing.errorAnswers} error answers from n8n`;
}

/** nginx's answer times (ms) for the requests on `path` since its log was cleared. */
export function answerTimes(path: string): { median: number; max: number } {
	const took = suite.cluster.balancer.log
		.filter((entry) => entry.path.startsWith(path))
		.map((entry) => entry.answeredAt - entry.at)
		.sort((a, b) => a - b);
	return { median: took[Math.floor(took.length / 2)] ?? 0, max: took.at(-1) ?? 0 };
}

export function describeAnswerTimes(path: string): string {
	const { median, max } = answerTimes(path);
	return `answered in ${median} ms median, ${max} ms max`;
}
