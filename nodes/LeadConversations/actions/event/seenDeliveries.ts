// Which verified deliveries this node has already let through, remembered across executions.

import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	DELIVERY_HORIZON_MS,
	DELIVERY_MEMORY_CAP,
	deliveryKey,
} from '../../../shared/events/dedup';
import type { EventPayload } from '../../../shared/events/payload';
import { RESEND_MS, recentKeys, rememberVerified } from './recentlyVerified';

/**
 * Keys kept per node in n8n's store, the last ones first. n8n reads and writes a node's whole list
 * on every run, so a run's cost grows with it (about 6 ms of n8n's CPU per run at 20,000 keys in
 * n8n 2.41.1, against 45 ms for a whole Webhook → Crypto → IF delivery). 5,000 keys hold the
 * replay window's 65 minutes at over 75 verified events a minute per node.
 */
export const N8N_STORE_CAP = 5_000;

/** Short, fixed-size form of a delivery key: memory holds thousands of them. */
export function storedKeyOf(payload: EventPayload): string {
	return createHash('sha256').update(deliveryKey(payload)).digest('base64url').slice(0, 32);
}

/** Where the keys were kept, reported on each verified item's run in the logs. */
export type SeenStore = 'n8n' | 'static data';

/**
 * Records `keys` (distinct) in `seen` (key → first seen, ms) and returns the ones not seen within
 * `horizonMs` before `now`. Expired keys are dropped and at most `cap` kept, oldest first out.
 */
export function recordUnseen(
	seen: Record<string, number>,
	keys: string[],
	now: number,
	horizonMs = DELIVERY_HORIZON_MS,
	cap = DELIVERY_MEMORY_CAP,
): string[] {
	for (const [key, at] of Object.entries(seen)) {
		if (now - at >= horizonMs) delete seen[key];
	}
	const unseen = keys.filter((key) => seen[key] === undefined);
	for (const key of unseen) seen[key] = now;
	const all = Object.entries(seen);
	if (all.length > cap) {
		all.sort((a, b) => a[1] - b[1]);
		for (const [key] of all.slice(0, all.length - cap)) delete seen[key];
	}
	return unseen;
}

/**
 * n8n's own de-duplication store (the one behind its Remove Duplicates node): kept in n8n's
 * database, so it holds across restarts, workers and webhook processes. `undefined` where the
 * engine does not offer it: n8n 1.x engines without the helper, or an engine running without
 * n8n's database, whose store is not set up (it then fails an assertion before reading anything).
 * One call records this execution's keys together with those this process let through lately
 * (recentlyVerified.ts): a key the store lost meanwhile is recorded again, and one this process
 * let through is a duplicate whatever the store says.
 */
async function unseenInN8n(
	context: IExecuteFunctions,
	keys: string[],
	now: number,
): Promise<string[] | undefined> {
	const check = (context.helpers as Partial<IExecuteFunctions['helpers']>).checkProcessedAndRecord;
	if (typeof check !== 'function') return undefined;
	const scope = `${context.getWorkflow().id ?? ''}|${context.getNode().id}`;
	const recent = recentKeys(scope, now);
	const known = new Set(recent);
	try {
		const { new: unseenInStore } = await check.call(
			context.helpers,
			[...new Set([...keys, ...recentKeys(scope, now, RESEND_MS)])],
			'node',
			{ mode: 'entries', maxEntries: N8N_STORE_CAP },
		);
		const inStore = new Set(unseenInStore.map(String));
		const unseen = keys.filter((key) => inStore.has(key) && !known.has(key));
		rememberVerified(scope, unseen, now);
		return unseen;
	} catch (error) {
		if ((error as { code?: unknown }).code === 'ERR_ASSERTION') return undefined;
		throw new NodeOperationError(context.getNode(), error as Error, {
			description: "n8n's de-duplication store could not be read or written",
		});
	}
}

/**
 * The keys among `keys` (distinct) not let through before, recorded as let through now. n8n's
 * store keeps the last N8N_STORE_CAP keys without expiry; the static-data fallback keeps
 * keys for DELIVERY_HORIZON_MS, and n8n saves it after a run that is not manual.
 */
export async function unseenDeliveries(
	context: IExecuteFunctions,
	keys: string[],
	now: number,
): Promise<{ unseen: Set<string>; store: SeenStore }> {
	if (keys.length === 0) return { unseen: new Set(), store: 'static data' };
	const fromN8n = await unseenInN8n(context, keys, now);
	if (fromN8n !== undefined) return { unseen: new Set(fromN8n), store: 'n8n' };

	const staticData = context.getWorkflowStaticData('node') as IDataObject;
	const seen = (staticData.verifiedDeliveries ?? {}) as Record<string, number>;
	const unseen = recordUnseen(seen, keys, now);
	staticData.verifiedDeliveries = seen;
	return { unseen: new Set(unseen), store: 'static data' };
}
