import { createHash } from 'crypto';

/**
 * The service retries a failed delivery about 1, 5 and 30 minutes after the first failure,
 * so every retry of one delivery arrives within ~36 minutes. Remembering a key for an hour
 * keeps a comfortable margin over that schedule.
 */
export const DELIVERY_HORIZON_MS = 60 * 60 * 1000;

/** Enough for a busy dealership group's hour of events while keeping memory bounded. */
export const DELIVERY_MEMORY_CAP = 5000;

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
	const resourceId =
		data !== null && typeof data === 'object' && !Array.isArray(data)
			? (data as Record<string, unknown>).id
			: undefined;
	const { event, timestamp } = payload;
	if (isKeyPart(event) && isKeyPart(resourceId) && isKeyPart(timestamp)) {
		return `${event}|${resourceId}|${timestamp}|${digestOf(data)}`;
	}
	return `payload|${digestOf(payload)}`;
}

function isKeyPart(value: unknown): value is string | number {
	return (typeof value === 'string' && value !== '') || typeof value === 'number';
}

/**
 * A set of delivery keys, each remembered for `horizonMs` after it was first seen, holding at
 * most `cap` keys (the oldest are forgotten first). Time is passed in so tests can move it.
 */
export class DeliveryDedup {
	private readonly firstSeenAt = new Map<string, number>();

	constructor(
		private readonly horizonMs = DELIVERY_HORIZON_MS,
		private readonly cap = DELIVERY_MEMORY_CAP,
	) {}

	/** Records `key` and says whether it was already seen within the horizon. */
	isDuplicate(key: string, now: number): boolean {
		this.forgetExpired(now);
		if (this.firstSeenAt.has(key)) return true;
		this.firstSeenAt.set(key, now);
		while (this.firstSeenAt.size > this.cap) {
			const oldest = this.firstSeenAt.keys().next().value as string;
			this.firstSeenAt.delete(oldest);
		}
		return false;
	}

	get size(): number {
		return this.firstSeenAt.size;
	}

	/** Keys are kept in insertion order, so expired ones are always at the front. */
	private forgetExpired(now: number): void {
		for (const [key, seenAt] of this.firstSeenAt) {
			if (now - seenAt < this.horizonMs) return;
			this.firstSeenAt.delete(key);
		}
	}
}
