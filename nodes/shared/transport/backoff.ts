// The shape of every wait that the service does not dictate: after a 5xx, a network error, or a
// 429 that says nothing about when to come back.

export interface BackoffPolicy {
	/** Ceiling of the first wait. */
	baseMs: number;
	/** No wait is longer than this. */
	capMs: number;
}

/**
 * Exponential backoff with jitter: between half and all of base·2^retry, capped. The jitter keeps
 * parallel executions that failed together from coming back together.
 */
export function backoffMs(
	retry: number,
	policy: BackoffPolicy,
	random: () => number = Math.random,
): number {
	const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** retry);
	return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
