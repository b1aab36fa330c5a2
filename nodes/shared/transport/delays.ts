// Every wait of the transport (and of the time budgets set around its requests), and the clock it
// measures waits with. Production uses the real clock; tests of the engine replace both (one
// object, set and restored by the test) so that retries, rate-limit windows and budgets pass
// without waiting in real time.

import { NodeOperationError, sleep } from 'n8n-workflow';

import type { ApiContext } from './connection';

export interface Delays {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export const delays: Delays = {
	now: () => Date.now(),
	sleep: async (ms) => await sleep(ms),
};

/** Waits are slept in slices so that a cancelled execution stops waiting promptly. */
const WAIT_SLICE_MS = 1_000;

export async function waitFor(this: ApiContext, ms: number, itemIndex?: number): Promise<void> {
	const signal = 'getExecutionCancelSignal' in this ? this.getExecutionCancelSignal() : undefined;
	let left = ms;
	while (left > 0) {
		if (signal?.aborted) {
			throw new NodeOperationError(this.getNode(), 'The execution was cancelled while waiting', {
				itemIndex,
			});
		}
		const slice = Math.min(left, WAIT_SLICE_MS);
		await delays.sleep(slice);
		left -= slice;
	}
}
