// One poll of Assigned Lead Contacted: read every lead in `assigned` (⌈A/100⌉ requests), note the
// waits, then, for each waiting lead whose activity moved since it was last checked, its
// conversation list (1 request) and the conversations with messages since (usually 1). Nothing is
// written here: the node stores the position once the poll ends.

import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { keepAbsent } from './absentLeads';
import { RequestTimer, findContact, readAssigned } from './assignedReads';
import type { ContactRule } from './contactRule';
import { contactedEntry, contactedItem, leadsToCheck, nextSeen } from './contacted';
import { noteAssigned } from './notContacted';
import type { OpeningHours } from '../shared/openingHours';
import type { NotContactedPosition, WaitEntry } from './position';
import { WAIT_STATE } from './position';

export interface ContactedRound {
	stored: NotContactedPosition | undefined;
	rule: ContactRule;
	/** When set, the response is also counted in open minutes. */
	hours?: OpeningHours;
	/** Epoch ms (n8n's clock) by which the poll must be done. */
	deadline: number;
	budgetMs: number;
	polledAt: string;
}

/**
 * Notes the waits and announces the first contact of each, oldest wait first, while the budget
 * allows; leads left are checked by the next poll. The first poll only notes: leads already
 * assigned at activation are never announced.
 */
export async function pollContacted(
	context: IPollFunctions,
	round: ContactedRound,
): Promise<{ items: IDataObject[]; position: NotContactedPosition }> {
	const timer = new RequestTimer(round.deadline);
	const { leads, nowMs } = await readAssigned(context, round, timer);
	const position = keepAbsent(round.stored, noteAssigned(round.stored, leads), nowMs);
	const items: IDataObject[] = [];
	if (!round.stored) return { items, position };

	const byId = new Map(leads.map((lead) => [String(lead.id), lead]));
	const checked = new Map<string, number>();
	for (const check of leadsToCheck(position, leads, round.stored.seen)) {
		if (!timer.fits(2)) break;
		const contact = await findContact(context, timer, check, round.rule, true);
		if (contact === undefined) {
			checked.set(check.id, check.activityMs);
			continue;
		}
		position.waits[check.id] = contactedEntry(position.waits[check.id]);
		items.push(
			contactedItem(
				byId.get(check.id)!,
				position.waits[check.id],
				contact,
				round.polledAt,
				round.hours,
			),
		);
	}
	const seen = nextSeen(position, round.stored.seen, checked);
	return { items, position: Object.keys(seen).length > 0 ? { ...position, seen } : position };
}

/**
 * A test run: the contacts really made on the given leads since their last update, as the event
 * would show them, while the run's time allows; a lead with none gives nothing (no item claims a
 * contact not made).
 */
export async function recentContacts(
	context: IPollFunctions,
	leads: IDataObject[],
	run: { rule: ContactRule; polledAt: string; deadline: number; hours?: OpeningHours },
): Promise<IDataObject[]> {
	const { rule, polledAt, hours } = run;
	const timer = new RequestTimer(run.deadline);
	const items: IDataObject[] = [];
	for (const lead of leads) {
		if (!timer.fits(2)) break;
		const startMs = typeof lead.updated_at === 'string' ? Date.parse(lead.updated_at) : Number.NaN;
		const advisor = lead.assigned_to;
		if (typeof advisor !== 'string' || Number.isNaN(startMs)) continue;
		const check = { id: String(lead.id), startMs, afterMs: startMs - 1 };
		const contact = await findContact(context, timer, check, rule, true);
		if (contact === undefined) continue;
		const entry: WaitEntry = [advisor, startMs, WAIT_STATE.contacted];
		items.push(contactedItem(lead, entry, contact, polledAt, hours));
	}
	return items;
}
