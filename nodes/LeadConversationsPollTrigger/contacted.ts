// Assigned Lead Contacted: the rules, as pure functions. It keeps the same waits as Assigned Lead
// Not Contacted (notContacted.ts's noteAssigned, absentLeads.ts), and ends a wait when the first
// contact after its start is seen, once per (lead, advisor). To stay cheap it opens the
// conversations only of waiting leads whose `last_activity_at` (on the lead list it reads anyway)
// has moved past what was checked before; the requests are contactedPoll.ts's.

import type { IDataObject } from 'n8n-workflow';

import type { OpeningHours } from '../shared/openingHours';
import { openMsBetween } from '../shared/openingHours';
import { isPresent } from './absentLeads';
import { leadStatusItem } from './events';
import type { NotContactedPosition, WaitEntry } from './position';
import { WAIT_STATE } from './position';

export const CONTACTED_EVENT = 'lead.contacted';

const timeOf = (value: unknown): number =>
	typeof value === 'string' ? Date.parse(value) : Number.NaN;

export interface ContactCheck {
	id: string;
	startMs: number;
	/** Conversations with a message after this (epoch ms) are opened. */
	afterMs: number;
	/** The lead's last_activity_at now; NaN when the service sent none. */
	activityMs: number;
}

/**
 * The waiting leads of the read whose activity moved since they were last checked (a lead not
 * checked yet: since its wait's start), oldest wait first. A lead without last_activity_at is
 * always checked.
 */
export function leadsToCheck(
	position: NotContactedPosition,
	leads: IDataObject[],
	seen: Record<string, number> | undefined,
): ContactCheck[] {
	const checks: ContactCheck[] = [];
	for (const lead of leads) {
		const id = String(lead.id);
		const entry = position.waits[id];
		if (!entry || entry[2] !== WAIT_STATE.waiting || !isPresent(position, id)) continue;
		const startMs = entry[1];
		const afterMs = seen?.[id] ?? startMs - 1;
		const activityMs = timeOf(lead.last_activity_at);
		if (activityMs > afterMs || Number.isNaN(activityMs)) {
			checks.push({ id, startMs, afterMs, activityMs });
		}
	}
	return checks.sort((a, b) => a.startMs - b.startMs);
}

/** What was checked, per waiting lead in the read: kept only for leads still waiting. */
export function nextSeen(
	position: NotContactedPosition,
	seen: Record<string, number> | undefined,
	checked: Map<string, number>,
): Record<string, number> {
	const next: Record<string, number> = {};
	for (const [id, [, , state]] of Object.entries(position.waits)) {
		if (state !== WAIT_STATE.waiting || !isPresent(position, id)) continue;
		const mark = checked.get(id) ?? seen?.[id];
		if (mark !== undefined && !Number.isNaN(mark)) next[id] = mark;
	}
	return next;
}

/** The wait ended by contact: announced, and never again for this advisor. */
export function contactedEntry(entry: WaitEntry): WaitEntry {
	const [advisor, startMs, , ...announced] = entry;
	return [advisor, startMs, WAIT_STATE.contacted, ...announced];
}

/**
 * The item: lead.assigned's fields, whose wait it was, when it began and when contact came (both
 * on the service's clock), and where; with opening hours, also the response in open minutes.
 */
export function contactedItem(
	lead: IDataObject,
	entry: WaitEntry,
	contact: { message: IDataObject; conversation: IDataObject },
	polledAt: string,
	hours?: OpeningHours,
): IDataObject {
	const [advisor, startMs] = entry;
	const contactedAt = String(contact.message.created_at);
	const contactedMs = Date.parse(contactedAt);
	const openMinutes =
		hours && contactedMs >= startMs ? openMsBetween(hours, startMs, contactedMs) / 60_000 : null;
	return {
		...leadStatusItem(lead, 'assigned', polledAt),
		event: CONTACTED_EVENT,
		advisor,
		waiting_since: new Date(startMs).toISOString(),
		contacted_at: contactedAt,
		response_seconds: Math.max(0, Math.round((contactedMs - startMs) / 1000)),
		response_open_minutes: openMinutes,
		conversation_id: contact.conversation.id ?? null,
		conversation_channel: contact.conversation.channel ?? null,
		polled_at: polledAt,
	};
}
