import { createHash } from 'crypto';

import { isRecord } from '../isRecord';
import { DEFAULT_REPLAY_WINDOW, dedupHorizonMs } from './replayWindow';

/**
 * Keys are remembered for the whole replay window (`replayWindow.ts`), so a delivery the window
 * accepts is always either new or known.
 */
export const DELIVERY_HORIZON_MS = dedupHorizonMs(DEFAULT_REPLAY_WINDOW);

/**
 * Keys kept per trigger: 20,000 events in 65 minutes is over 300 a minute for one trigger.
 * Each key is held as a 44-character digest, about 3 MB when full. Beyond it the oldest keys go
 * first, and only for those would a replay inside the window run again.
 */
export const DELIVERY_MEMORY_CAP = 20_000;

/**
 * JSON of `value` with every object's keys sorted, so that two serializations of one value
 * (other spacing, other key order) give the same text. Arrays keep their order.
 */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const record = value as Record<string, unknown>;
		const fields = Object.keys(record)
			.filter((name) => record[name] !== undefined)
			.sort()
			.map((name) => `${JSON.stringify(name)}:${canonicalJson(record[name])}`);
		return `{${fields.join(',')}}`;
	}
	return value === undefined ? 'null' : JSON.stringify(value);
}

function digestOf(value: unknown): string {
	return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** A key as the memory holds it: short and of fixed size whatever the payload. */
function compact(key: string): string {
	return createHash('sha256').update(key).digest('base64');
}

/**
 * The key that identifies one event across its retries. The service retries with the same
 * body, so `event`, `data.id` and `timestamp` repeat, and so does `data`. `data` is part of
 * the key because two different events about one record can share their millisecond (a lead
 * scored twice, a conversation transferred and closed at once); `event|data.id|timestamp`
 * alone would take the second for a retry of the first and lose it. `data` is compared as
 * canonical JSON, so a retry serialized with other spacing or key order is still the same
 * event. When the payload lacks `data.id` or `timestamp`, the whole payload is compared.
 */
export function deliveryKey(payload: Record<string, unknown>): string {
	const data = payload.data;
	const resourceId = isRecord(data) ? data.id : undefined;
	const { event, timestamp } = payload;
	if (isKeyPart(event) && isKeyPart(resourceId) && isKeyPart(timestamp)) {
		return `${event}|${resourceId}|${timestamp}|${digestOf(data)}`;
	}
	return `payload|${digestOf(payload)}`;
}

/**
 * The event's delivery key as a fixed-size text (hex SHA-256), the same in every n8n process and
 * after a restart: what a workflow can de-duplicate on where this process's memory cannot
 * (queue mode, restarts), for example with n8n's Remove Duplicates node.
 */
export function deliveryKeyDigest(payload: Record<string, unknown>): string {
	return createHash('sha256').update(deliveryKey(payload)).digest('hex');
}

function isKeyPart(value: unknown): value is string | number {
	return (typeof value === 'string' && value !== '') || typeof value === 'number';
}

/**
 * A set of delivery keys, each remembered for `horizonMs` (edge included) after it was first seen, holding at
 * most `cap` keys (the oldest are forgotten first). Time is passed in so tests can move it.
 */
export class DeliveryDedup {
	private readonly firstSeenAt = new Map<string, number>();

	/** Set anew on each use, so a changed replay window applies at once. */
	horizonMs: number;

	constructor(
		horizonMs = DELIVERY_HORIZON_MS,
		private readonly cap = DELIVERY_MEMORY_CAP,
	) {
		this.horizonMs = horizonMs;
	}

	/** Records `key` and says whether it was already seen within the horizon. */
	isDuplicate(fullKey: string, now: number): boolean {
		this.forgetExpired(now);
		const key = compact(fullKey);
		if (this.firstSeenAt.has(key)) return true;
		this.firstSeenAt.set(key, now);
		while (this.firstSeenAt.size > this.cap) {
			const oldest = this.firstSeenAt.keys().next().value as string;
			this.firstSeenAt.delete(oldest);
		}
		return false;
	}

	/** Forgets `fullKey`, so that the next copy of its event counts as new. */
	forget(fullKey: string): void {
		this.firstSeenAt.delete(compact(fullKey));
	}

	get size(): number {
		return this.firstSeenAt.size;
	}

	/** Keys are kept in insertion order, so expired ones are always at the front. */
	private forgetExpired(now: number): void {
		for (const [key, seenAt] of this.firstSeenAt) {
			if (now - seenAt <= this.horizonMs) return;
			this.firstSeenAt.delete(key);
		}
	}
}
