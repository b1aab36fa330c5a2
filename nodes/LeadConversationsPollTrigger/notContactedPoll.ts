// One poll of Assigned Lead Not Contacted: read every lead in `assigned` (⌈A/100⌉ requests), note
// the waits, then check the leads whose wait has ended: GET /conversations?lead_id=… and
// GET /conversations/{id} for the conversations with messages since the wait's start (version 1:
// after the notice grace). The rules are notContacted.ts's and contactRule.ts's. Nothing is written here: the node stores the position once the poll
// ends, and a poll that throws stores nothing (its announcements are not started either).

import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { keepAbsent } from './absentLeads';
import { RequestTimer, findContact, readAssigned } from './assignedReads';
import type { ContactRule } from './contactRule';
import { contactWindowStart } from './contactRule';
import { afterCheck, dueLeads, noteAssigned, notContactedItem } from './notContacted';
import type { NotContactedPosition } from './position';
import type { WaitClock } from './waitClock';

export interface NotContactedRound {
	stored: NotContactedPosition | undefined;
	wait: WaitClock;
	rule: ContactRule;
	/** Epoch ms (n8n's clock) by which the poll must be done. */
	deadline: number;
	budgetMs: number;
	polledAt: string;
}

export interface NotContactedOutcome {
	items: IDataObject[];
	position: NotContactedPosition;
}

/** Whether the lead's advisor reached it since startMs (the first conversation with contact). */
async function wasContacted(
	context: IPollFunctions,
	timer: RequestTimer,
	id: string,
	startMs: number,
	rule: ContactRule,
): Promise<boolean> {
	const afterMs = contactWindowStart(startMs, rule);
	return (await findContact(context, timer, { id, startMs, afterMs }, rule)) !== undefined;
}

/**
 * Notes the waits and checks the ended ones, oldest first, while the budget allows (two requests
 * each, usually); those left are checked by the next poll. The first poll only notes.
 */
export async function pollNotContacted(
	context: IPollFunctions,
	round: NotContactedRound,
): Promise<NotContactedOutcome> {
	const timer = new RequestTimer(round.deadline);
	const { leads, nowMs } = await readAssigned(context, round, timer);
	const position = keepAbsent(round.stored, noteAssigned(round.stored, leads, round.wait), nowMs);
	const items: IDataObject[] = [];
	if (!round.stored) return { items, position };

	const byId = new Map(leads.map((lead) => [lead.id as string, lead]));
	for (const id of dueLeads(position, nowMs, round.wait)) {
		if (!timer.fits(2)) break;
		const entry = position.waits[id];
		const contacted = await wasContacted(context, timer, id, entry[1], round.rule);
		position.waits[id] = afterCheck(entry, contacted);
		if (!contacted)
			items.push(notContactedItem(byId.get(id)!, position.waits[id], round.polledAt, round.wait));
	}
	return { items, position };
}

/** A test run checks at most this many leads whose wait has ended: it stays quick. */
export const TEST_RUN_CHECKS = 10;

/**
 * A test run (Fetch Test Event, Execute workflow): what a poll would announce now, had it been
 * running. Each assigned lead waits from its updated_at (the assignment moved it) on the
 * service's clock; of those whose wait has ended, newest first, contact is checked as a poll
 * checks it, and only leads nobody contacted are returned, at most `most`. Nothing is noted, and
 * the earlier advisors of a lead are not known: `missed_by` holds the current one.
 */
export async function notContactedNow(
	context: IPollFunctions,
	round: Omit<NotContactedRound, 'stored'>,
	most: number,
): Promise<{ items: IDataObject[]; assigned: number }> {
	const timer = new RequestTimer(round.deadline);
	const { leads, nowMs } = await readAssigned(context, round, timer);
	// As a poll that sees every lead for the first time after the activation poll.
	const position = noteAssigned({ waits: {} }, leads, round.wait);
	const byId = new Map(leads.map((lead) => [lead.id as string, lead]));
	const due = dueLeads(position, nowMs, round.wait).reverse().slice(0, TEST_RUN_CHECKS);
	const items: IDataObject[] = [];
	for (const id of due) {
		if (items.length >= most || !timer.fits(2)) break;
		const entry = position.waits[id];
		if (await wasContacted(context, timer, id, entry[1], round.rule)) continue;
		const item = notContactedItem(
			byId.get(id)!,
			afterCheck(entry, false),
			round.polledAt,
			round.wait,
		);
		items.push(item);
	}
	return { items, assigned: leads.length };
}
