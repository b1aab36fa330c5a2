/**
 * Keys this n8n process let through lately, per Verify node, held in the process's memory.
 *
 * Why: n8n's de-duplication store reads a node's whole list of keys and writes it back without
 * a lock, so a recording that read the list just before another one's key was written writes
 * back a list without that key (measured in queue mode: 12 of 200 events verified twice when
 * every answer was lost and the retries came back). Every later call of this node in this
 * process passes these keys again: one the store lost is recorded again before a retry of its
 * event can arrive (the service retries a minute or more later), and a retry that reaches this
 * process is refused from memory whatever the store says.
 *
 * What it cannot cover: a key lost by the last recording of a burst on one process, whose retry
 * then reaches another process before anything ran here again.
 */

/** Long enough to outlive the service's first retry (about a minute after the first attempt). */
export const RECENT_MS = 120_000;
/** Keys held per node at most. */
export const RECENT_CAP = 2_000;
/**
 * Only keys let through this recently are passed again: a key is dropped by a recording that
 * overlaps its own, so the next calls re-record it long before the service's retry, and n8n
 * hashes every key passed (a few microseconds apiece, on every delivery).
 */
export const RESEND_MS = 15_000;

const recentByNode = new Map<string, Map<string, number>>();

/** The keys let through within `withinMs` before `now`; those older than RECENT_MS are dropped. */
export function recentKeys(scope: string, now: number, withinMs = RECENT_MS): string[] {
	const recent = recentByNode.get(scope);
	if (!recent) return [];
	for (const [key, at] of recent) {
		if (now - at < RECENT_MS) break;
		recent.delete(key);
	}
	if (recent.size === 0) recentByNode.delete(scope);
	return [...recent].filter(([, at]) => now - at < withinMs).map(([key]) => key);
}

/** Adds keys let through now; the oldest go first beyond RECENT_CAP. */
export function rememberVerified(scope: string, keys: string[], now: number): void {
	if (keys.length === 0) return;
	const recent = recentByNode.get(scope) ?? new Map<string, number>();
	for (const key of keys) {
		recent.delete(key);
		recent.set(key, now);
	}
	for (const key of recent.keys()) {
		if (recent.size <= RECENT_CAP) break;
		recent.delete(key);
	}
	recentByNode.set(scope, recent);
}
