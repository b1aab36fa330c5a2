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

export interface NotContactedRound {
	stored: NotContactedPosition | undefined;
	waitMs: number;
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
	const position = keepAbsent(round.stored, noteAssigned(round.stored, leads, round.waitMs), nowMs);
	const items: IDataObject[] = [];
	if (!round.stored) return { items, position };

	const byId = new Map(leads.map((lead) => [lead.id as string, lead]));
	for (const id of dueLeads(position, nowMs, round.waitMs)) {
		if (!timer.fits(2)) break;
		const entry = position.waits[id];
		const [, startMs] = entry;
		const afterMs = contactWindowStart(startMs, round.rule);
		const contact = await findContact(context, timer, { id, startMs, afterMs }, round.rule);
		const contacted = contact !== undefined;
		position.waits[id] = afterCheck(entry, contacted);
		if (!contacted) items.push(notContactedItem(byId.get(id)!, position.waits[id], round.polledAt));
	}
	return { items, position };
}
