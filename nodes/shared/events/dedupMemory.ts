import { DeliveryDedup } from './dedup';

/**
 * Delivery keys seen by each receiver (a trigger's subscription), held in this n8n process's
 * memory.
 *
 * Why not the node's static data: n8n (checked on 2.41.1) does not save static data written
 * in `webhook()` when that call starts an execution, so keys kept only there would never be
 * seen again and every retry would run the workflow once more.
 *
 * What this guarantees: within one running n8n instance, a retried, duplicated or replayed
 * delivery of an event (same `event`, `data.id`, `timestamp` and `data`; see `deliveryKey`)
 * that the replay window accepts starts no second execution. It does not hold across a restart
 * of n8n (the memory is empty again, so a copy arriving after the restart, inside the window,
 * may run once more) nor across the separate webhook processes of queue mode (each has its own
 * memory).
 */
const ledgers = new Map<string, DeliveryDedup>();

export function deliveryLedger(scope: string, horizonMs: number): DeliveryDedup {
	let ledger = ledgers.get(scope);
	if (!ledger) {
		ledger = new DeliveryDedup(horizonMs);
		ledgers.set(scope, ledger);
	}
	ledger.horizonMs = horizonMs;
	return ledger;
}

/** Frees a receiver's keys once its deliveries cannot arrive any more. */
export function forgetDeliveries(scope: string): void {
	ledgers.delete(scope);
}

/** One ledger per node per subscription, so test and production listeners stay apart. */
export function deliveryScope(
	workflowId: string | undefined,
	nodeId: string,
	subscriptionId: string | undefined,
): string {
	return `${workflowId ?? ''}|${nodeId}|${subscriptionId ?? 'manual'}`;
}
