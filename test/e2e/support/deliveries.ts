// Deliveries the end-to-end specs send through the service by hand: one the service never
// signed, and one it signed before, sent again with the same bytes and signature.

import type { DeliveryLogEntry, RunningSandbox } from '../../../sandbox';

/** A lead.qualified event with a signature of the right length that the service never made. */
export async function deliverForged(sandbox: RunningSandbox, subscriptionId: string) {
	const body = JSON.stringify({
		event: 'lead.qualified',
		timestamp: new Date().toISOString(),
		organization_id: 'org_alpha',
		data: { id: 'lead_forged', score: 99 },
	});
	return await sandbox.control.deliverRaw(subscriptionId, body, {
		'X-Service-Signature': 'ab'.repeat(32),
	});
}

/** The service's first lead.qualified delivery in its log. */
export function firstQualifiedDelivery(sandbox: RunningSandbox): DeliveryLogEntry {
	return sandbox.control.deliveries().find((d) => d.event === 'lead.qualified')!;
}

/** The same delivery again, as the service retries it: same bytes, same signature. */
export async function deliverAgain(sandbox: RunningSandbox, delivery: DeliveryLogEntry) {
	return await sandbox.control.deliverRaw(delivery.subscriptionId, delivery.body, {
		'X-Service-Signature': delivery.signature,
	});
}
