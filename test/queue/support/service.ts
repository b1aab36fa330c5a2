import { triggerWebhookPath } from '../../../harness/queue/workflows';
import { waitFor } from '../../../harness/real-n8n/processes';
import { eventKey, keysOfLeads, runsPerEvent, sleep } from './runs';
import { suite, WEBHOOK_IDS } from './suite';

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

export function webhookRequests(method: 'POST' | 'DELETE') {
	return suite.sandbox.control
		.requests()
		.filter((r) => r.method === method && r.path.startsWith('/v1/webhooks'));
}

export async function totalExecutions(workflowId: string): Promise<number> {
	const counts = await suite.cluster.db.executionCounts(workflowId);
	return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** Settled deliveries, but never longer than `capMs` (a third retry may be minutes away). */
export async function deliveriesSettled(capMs: number): Promise<boolean> {
	return await Promise.race([
		suite.sandbox.control.whenDeliveriesSettled().then(() => true),
		sleep(capMs).then(() => false),
	]);
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
