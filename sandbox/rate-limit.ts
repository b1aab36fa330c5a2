import {
	RATE_LIMIT_LIMIT_HEADER,
	RATE_LIMIT_REMAINING_HEADER,
	RATE_LIMIT_RESET_HEADER,
} from './constants';

export interface RateLimitResult {
	limited: boolean;
	headers: Record<string, string>;
	retryAfterSeconds: number;
}

/**
 * Fixed windows aligned on the clock: a window starts at floor(now / windowMs) * windowMs.
 * Every request with a valid key counts, including the refused ones (403, 429...).
 */
export class RateLimiter {
	private counters = new Map<string, { windowStart: number; count: number }>();

	constructor(
		private limit: number,
		private windowMs: number,
	) {}

	configure(limit: number, windowMs: number): void {
		this.limit = limit;
		this.windowMs = windowMs;
		this.counters.clear();
	}

	clear(): void {
		this.counters.clear();
	}

	get settings(): { limit: number; windowMs: number } {
		return { limit: this.limit, windowMs: this.windowMs };
	}

	hit(key: string, now = Date.now()): RateLimitResult {
		const windowStart = this.windowStart(now);
		let counter = this.counters.get(key);
		if (!counter || counter.windowStart !== windowStart) {
			counter = { windowStart, count: 0 };
			this.counters.set(key, counter);
		}
		counter.count++;
		return this.result(counter.count, windowStart, now);
	}

	/** Headers for a request that is not counted (no valid key): a fresh window. */
	peek(now = Date.now()): RateLimitResult {
		return this.result(0, this.windowStart(now), now);
	}

	private windowStart(now: number): number {
		return Math.floor(now / this.windowMs) * this.windowMs;
	}

	private result(count: number, windowStart: number, now: number): RateLimitResult {
		const end = windowStart + this.windowMs;
		// Seconds, rounded up: a client that waits until X-RateLimit-Reset is past the window end.
		const resetSeconds = Math.ceil(end / 1000);
		const retryAfterSeconds = Math.max(1, Math.ceil((end - now) / 1000));
		return {
			limited: count > this.limit,
			retryAfterSeconds,
			headers: {
				[RATE_LIMIT_LIMIT_HEADER]: String(this.limit),
				[RATE_LIMIT_REMAINING_HEADER]: String(Math.max(0, this.limit - count)),
				[RATE_LIMIT_RESET_HEADER]: String(resetSeconds),
			},
		};
	}
}
