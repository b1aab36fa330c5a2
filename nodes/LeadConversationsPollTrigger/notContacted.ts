// Assigned Lead Not Contacted: the rules, as pure functions (no n8n context, no HTTP). The
// requests are notContactedPoll.ts's; what counts as contact is contactRule.ts's.
//
// Per lead in `assigned`, the trigger keeps (advisor, wait start). The wait starts at the lead's
// updated_at when the trigger first sees it with that advisor: the assignment moved updated_at,
// so the start is at or after the assignment, never before it. Once the service's clock has
// passed start + wait, the lead's conversations are checked once for contact. Assigned Lead
// Contacted keeps the same waits (contactedPoll.ts). A lead missing from a read is kept for a
// while (absentLeads.ts); a new advisor starts a new wait.

import type { IDataObject } from 'n8n-workflow';

import { isPresent } from './absentLeads';
import { leadStatusItem } from './events';
import type { NotContactedPosition, WaitEntry } from './position';
import { WAIT_STATE } from './position';
import type { WaitClock } from './waitClock';
import { waitEndOf, waitFacts } from './waitClock';

export const NOT_CONTACTED_EVENT = 'lead.not_contacted';

export const WAIT_UNITS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;
export type WaitUnit = keyof typeof WAIT_UNITS;
export const WAIT_MIN_MS = WAIT_UNITS.minutes;
export const WAIT_MAX_MS = 30 * WAIT_UNITS.days;

/** The wait in ms, or a sentence naming the field that is wrong. */
export function waitMsOf(amount: unknown, unit: unknown): number | string {
	if (typeof unit !== 'string' || !(unit in WAIT_UNITS)) {
		return `Wait Unit must be minutes, hours or days, not ${JSON.stringify(unit)}`;
	}
	const value = typeof amount === 'number' ? amount : Number.NaN;
	const ms = value * WAIT_UNITS[unit as WaitUnit];
	if (!Number.isFinite(ms) || ms < WAIT_MIN_MS || ms > WAIT_MAX_MS) {
		return `Wait Amount must make a wait from 1 minute to 30 days; ${String(amount)} ${unit} does not`;
	}
	return ms;
}

const timeOf = (value: unknown): number =>
	typeof value === 'string' ? Date.parse(value) : Number.NaN;

function advisorOf(lead: IDataObject): string | undefined {
	const advisor = lead.assigned_to;
	return typeof advisor === 'string' && advisor !== '' ? advisor : undefined;
}

/**
 * The waits of the leads in a complete read of `assigned`. Without a stored position
 * (activation) every lead is noted as done: leads assigned before the trigger ran are never
 * announced. A lead with the same advisor keeps its wait; another advisor starts a new one, and
 * the one before joins the announced advisors if it was announced. A lead with no advisor has
 * nobody to wait for and is not kept. Leads not in the read: keepAbsent (absentLeads.ts).
 *
 * Not Contacted (`wait` given): an advisor whose wait had ended before the lead moved on (the
 * lead's updated_at is past the end) also joins the missers, announced or not, so that a poll
 * whose position was not stored can never send the hand-off back.
 */
export function noteAssigned(
	stored: NotContactedPosition | undefined,
	leads: IDataObject[],
	wait?: WaitClock,
): NotContactedPosition {
	const waits: Record<string, WaitEntry> = {};
	for (const lead of leads) {
		const id = lead.id;
		const advisor = advisorOf(lead);
		const startMs = timeOf(lead.updated_at);
		if (typeof id !== 'string' || id === '' || advisor === undefined || Number.isNaN(startMs)) {
			continue;
		}
		if (waits[id]) continue;
		const previous = stored?.waits?.[id];
		if (!stored) {
			waits[id] = [advisor, startMs, WAIT_STATE.done];
		} else if (!previous) {
			waits[id] = [advisor, startMs, WAIT_STATE.waiting];
		} else if (previous[0] === advisor) {
			waits[id] = previous;
		} else {
			const [before, beforeStartMs, state, ...missers] = previous;
			const waitEnded =
				wait !== undefined &&
				state === WAIT_STATE.waiting &&
				startMs >= waitEndOf(wait, beforeStartMs);
			const announced = state === WAIT_STATE.missed || state === WAIT_STATE.contacted || waitEnded;
			const missedBy = announced && !missers.includes(before) ? [...missers, before] : missers;
			// Announced once per (lead, advisor): an advisor announced before is not again.
			const next = missedBy.includes(advisor) ? WAIT_STATE.done : WAIT_STATE.waiting;
			waits[id] = [advisor, startMs, next, ...missedBy];
		}
	}
	return { waits };
}

/**
 * Leads in the latest read whose wait has ended on the service's clock and is not checked yet,
 * oldest wait first.
 */
export function dueLeads(position: NotContactedPosition, nowMs: number, wait: WaitClock): string[] {
	return Object.entries(position.waits)
		.filter(([id]) => isPresent(position, id))
		.filter(
			([, [, startMs, state]]) => state === WAIT_STATE.waiting && nowMs >= waitEndOf(wait, startMs),
		)
		.sort(([, a], [, b]) => a[1] - b[1])
		.map(([id]) => id);
}

/** The outcome of a check: contact ends the wait quietly, none announces the lead. */
export function afterCheck(entry: WaitEntry, contacted: boolean): WaitEntry {
	const [advisor, startMs, , ...missers] = entry;
	return [advisor, startMs, contacted ? WAIT_STATE.done : WAIT_STATE.missed, ...missers];
}

/** The item: lead.assigned's fields, the wait's start and end, and who let the lead wait. */
export function notContactedItem(
	lead: IDataObject,
	entry: WaitEntry,
	polledAt: string,
	wait: WaitClock,
): IDataObject {
	const [advisor, startMs, , ...missers] = entry;
	const missedBy = [...missers, advisor];
	return {
		...leadStatusItem(lead, 'assigned', polledAt),
		waiting_since: new Date(startMs).toISOString(),
		...waitFacts(wait, startMs),
		missed_by: missedBy,
		misses: missedBy.length,
		event: NOT_CONTACTED_EVENT,
		polled_at: polledAt,
	};
}
