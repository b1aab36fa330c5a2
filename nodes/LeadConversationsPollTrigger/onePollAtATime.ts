// One poll of a node at a time in this n8n process. n8n (1.x, and 2.41 unless its durable
// scheduler is on) starts a poll at every Poll Times entry without waiting for the one before, and
// hands both the same stored position: a slow poll and the next one would announce the same
// changes twice. A poll that finds the previous one of its node still running starts nothing and
// leaves the position to it. Polls run in one process (main; the leader in multi-main).

import type { IPollFunctions } from 'n8n-workflow';

/** Past its budget by this much, a poll is taken as gone (its process state lost, say). */
const STALE_AFTER_BUDGET_MS = 3 * 60_000;

/** Per workflow and node: when its running poll started. */
const running = new Map<string, number>();

function keyOf(context: IPollFunctions): string {
	const node = context.getNode();
	return `${context.getWorkflow().id ?? ''}\u0000${node.id ?? node.name}`;
}

/**
 * Runs `poll` unless a poll of the same node is still running (then: null, nothing read or
 * written). `budgetMs` is the poll's own time budget.
 */
export async function onePollAtATime<T>(
	context: IPollFunctions,
	budgetMs: number,
	poll: () => Promise<T>,
): Promise<T | null> {
	const key = keyOf(context);
	const now = Date.now();
	const started = running.get(key);
	if (started !== undefined && now - started < budgetMs + STALE_AFTER_BUDGET_MS) {
		context.logger.info(
			`Lead Conversations Polling Trigger "${context.getNode().name}": the previous poll is still running, so this one starts nothing`,
		);
		return null;
	}
	running.set(key, now);
	try {
		return await poll();
	} finally {
		if (running.get(key) === now) running.delete(key);
	}
}
