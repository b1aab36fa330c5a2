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
 * The key that identifies one event across its retries: the service says `data.id`
 * identifies the resource; `event` and `timestamp` tell apart several events about the same
 * lead. When the payload lacks `data.id` or `timestamp` the key falls back to a digest of the
 * body bytes, which retries repeat exactly.
 */
export function deliveryKey(payload: Record<string, unknown>, rawBody: Buffer): string {
	const data = payload.data;
	const resourceId =
		data !== null && typeof data === 'object' && !Array.isArray(data)
			? (data as Record<string, unknown>).id
			: undefined;
	const { event, timestamp } = payload;
	if (isKeyPart(event) && isKeyPart(resourceId) && isKeyPart(timestamp)) {
		return `${event}|${resourceId}|${timestamp}`;
	}
	return `body|${createHash('sha256').update(rawBody).digest('hex')}`;
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
