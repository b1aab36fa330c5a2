import { triggerWebhookPath } from '../../../harness/queue/workflows';
import { waitFor } from '../../../harness/real-n8n/processes';
import { eventKey, keysOfLeads, runsPerEvent } from './runs';
import { IDS, suite, WEBHOOK_IDS } from './suite';

// What the service (the sandbox) and the run sink say about the trigger's subscriptions and
// runs, shared by the spec modules.

export function subscriptionsAt(webhookId: string) {
	return suite.sandbox.control
		.webhooks()
		.filter((w) => w.url.endsWith(`/${triggerWebhookPath(webhookId)}`));
}

export function onlySubscription(webhookId: string = WEBHOOK_IDS.main) {
	const subscriptions = subscriptionsAt(webhookId);
	expect(subscriptions).toHaveLength(1);
	return subscriptions[0];
}

/**
 * The trigger workflow of points 1, 2, 3 and 7 active for the enclosing describe block only:
 * active, each lead created elsewhere in the suite would be a second delivery (and a run) beside
 * the point's own, and its failed attempts' retries would reach later points.
 */
export function withMainTriggerActive(): void {
	beforeAll(async () => {
		if (subscriptionsAt(WEBHOOK_IDS.main).length === 0) await suite.cluster.activate(IDS.main);
	});
	afterAll(async () => {
		await suite.cluster.deactivate(IDS.main);
		await waitFor('the main trigger’s subscription to be deleted', () =>
			subscriptionsAt(WEBHOOK_IDS.main).length === 0 ? true : undefined,
		);
	});
}

export function webhookRequests(method: 'POST' | 'DELETE') {
	return suite.sandbox.control
		.requests()
		.filter((r) => r.method === method && r.path.startsWith('/v1/webhooks'));
}

export async function totalExecutions(workflowId: string): Promise<number> {
	const counts = await suite.cluster.db.executionCounts(workflowId);
	return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/**
 * Waits until the service has delivered `events` events to `subscriptionId` since its log was
 * cleared, each with an attempt answered 2xx, or `capMs` passed (a third retry may be minutes
 * away). Other subscriptions' retries, which may never succeed, are not waited for.
 */
export async function deliveredToSubscription(
	subscriptionId: string,
	events: number,
	capMs: number,
) {
	const delivered = () => {
		const ok = new Map<string, boolean>();
		for (const d of suite.sandbox.control.deliveries()) {
			if (d.subscriptionId !== subscriptionId) continue;
			ok.set(d.deliveryId, (ok.get(d.deliveryId) ?? false) || d.ok);
		}
		return ok.size >= events && [...ok.values()].every(Boolean);
	};
	await waitFor('every delivery to succeed', () => (delivered() ? true : undefined), {
		timeoutMs: capMs,
		intervalMs: 500,
	}).catch(() => undefined);
}

/**
 * Waits until the service has tried to deliver the events of these leads at least once. Not
 * "all deliveries settled": retries of earlier tests may be minutes away.
 */
export async function attemptedFor(leadIds: string[]): Promise<void> {
	await waitFor(
		'the first delivery attempts',
		() => (keysOfLeads(suite.sandbox, leadIds).length >= leadIds.length ? true : undefined),
		{ timeoutMs: 30_000 },
	).catch(() => undefined);
}

/** Runs per event of a trigger workflow, from the sink. */
export function triggerRuns(workflowId: string, kind = 'trigger') {
	return runsPerEvent(suite.sink, kind, (r) => r.workflow === workflowId);
}

/**
 * Whether every run of one event carries the same delivery key, and no two events share one:
 * the key a workflow can de-duplicate on where the trigger's memory does not reach.
 */
export function deliveryKeysConsistent(kind: string, workflowId: string, keys: string[]) {
	const wanted = new Set(keys);
	const byEvent = new Map<string, Set<string>>();
	for (const record of suite.sink.of(kind).filter((r) => r.workflow === workflowId)) {
		const event = eventKey(record);
		if (!wanted.has(event)) continue;
		byEvent.set(event, (byEvent.get(event) ?? new Set()).add(String(record.deliveryKey)));
	}
	const perEvent = [...byEvent.values()];
	const everyRunSameKey = perEvent.every((set) => set.size === 1 && !set.has('undefined'));
	const distinct = new Set(perEvent.flatMap((set) => [...set])).size === perEvent.length;
	return { events: perEvent.length, everyRunSameKey, distinct };
}

/** How often each lead ID was announced by the runs of one poll workflow (`kind` of its sink record). */
export function announcedBy(kind: string): Map<string, number> {
	const counts = new Map<string, number>();
	for (const record of suite.sink.of(kind)) {
		for (const id of record.ids as string[]) counts.set(id, (counts.get(id) ?? 0) + 1);
	}
	return counts;
}

/** New-lead polls so far: the service's GET /leads with `created_after` (one request each). */
export function newLeadPolls(): number {
	return suite.sandbox.control
		.requests()
		.filter((r) => r.path === '/v1/leads' && r.query.created_after).length;
}
