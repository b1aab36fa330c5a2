// What Lead → Assign does with one lead once it is read: leave it, or give it to one of the
// advisors eligible for it (eligibleAdvisors.ts), never to one passed over. Pure: the turns and the
// request are the operation's.

import type { Problem } from '../../shared/validation';
import { checkPlainId } from '../../shared/validation';
import type { LeadForRule } from './advisorRules';
import { textList } from './advisorRules';
import type { Advisor } from './roster';
import { eligibleAdvisors } from './eligibleAdvisors';

export interface Assignment {
	advisor: string;
	leftAsItWas: boolean;
	reason: string;
	/** The lead's advisor before this run, null when it had none. */
	previousAdvisor: string | null;
	/** Skip Advisors and the advisor the lead was taken from, in that order, each once. */
	passedOver: string[];
	/** How many advisors the lead has been passed on from, this hand-off included. */
	handoffs: number;
}

export interface AssignChoices {
	reassign: boolean;
	passOn: boolean;
	skip: string[];
}

export interface AssignPlan {
	assignment?: Assignment;
	/** The advisors the pick was made among (for giving a turn back). */
	eligible: Advisor[];
	/** Why the lead cannot be given to anyone, a sentence naming the lead. */
	problem?: string;
}

/** Skip Advisors as user IDs: a list, JSON text of one, or comma-separated text. */
export function skipList(field: string, value: unknown): { skip: string[]; problem: Problem } {
	const entries = textList(value);
	if (entries === undefined) {
		const shown = JSON.stringify(value) ?? String(value);
		return {
			skip: [],
			problem: `${field} must be user IDs, as a list or comma-separated text (got ${shown})`,
		};
	}
	for (const [index, entry] of entries.entries()) {
		const label = `${field} (entry ${index + 1})`;
		if (typeof entry !== 'string') {
			return { skip: [], problem: `${label} must be a user ID (got ${JSON.stringify(entry)})` };
		}
		const problem = checkPlainId(label, entry);
		if (problem) return { skip: [], problem };
	}
	return { skip: [...new Set(entries as string[])], problem: undefined };
}

/** Refused before the lead is read: Skip Advisors leaving no one who could take any lead. */
export function checkSkipLeavesSomeone(field: string, roster: Advisor[], skip: string[]): Problem {
	const left = roster.some((advisor) => !advisor.away && !skip.includes(advisor.userId));
	if (left) return undefined;
	return `${field} (${skip.join(', ')}) leaves no available advisor in the roster`;
}

/** The lead's advisor, or null. */
function currentAdvisor(lead: { assigned_to?: unknown }): string | null {
	const current = lead.assigned_to;
	return typeof current === 'string' && current.trim() !== '' ? current : null;
}

/**
 * The plan for the lead `leadId`: `pick` chooses among the eligible advisors (by turn or by lead).
 * A lead with an advisor is left as it is unless Reassign or Pass On is on; Pass On never gives
 * it back to that advisor, and no one in Skip Advisors is ever picked.
 */
export function planAssignment(
	leadId: string,
	lead: LeadForRule & { assigned_to?: unknown },
	roster: Advisor[],
	choices: AssignChoices,
	pick: (eligible: Advisor[]) => string,
): AssignPlan {
	const previousAdvisor = currentAdvisor(lead);
	const unchanged = (advisor: string, reason: string): Assignment => ({
		advisor,
		leftAsItWas: true,
		reason,
		previousAdvisor,
		passedOver: [],
		handoffs: 0,
	});
	if (previousAdvisor !== null && !choices.reassign && !choices.passOn) {
		return { assignment: unchanged(previousAdvisor, 'already had an advisor'), eligible: [] };
	}
	const excluded = new Set(choices.skip);
	if (choices.passOn && previousAdvisor !== null) excluded.add(previousAdvisor);
	const { advisors: eligible, why } = eligibleAdvisors(roster, lead, excluded);
	if (eligible.length === 0) {
		const verb = choices.passOn && previousAdvisor !== null ? 'passed on' : 'assigned';
		return { eligible, problem: `Lead ${leadId} cannot be ${verb}: ${why}` };
	}
	const advisor = pick(eligible);
	if (advisor === previousAdvisor) {
		return { assignment: unchanged(advisor, 'already had the advisor picked'), eligible };
	}
	const passedOver = [...choices.skip];
	if (previousAdvisor !== null && !passedOver.includes(previousAdvisor)) {
		passedOver.push(previousAdvisor);
	}
	let reason = 'assigned';
	if (previousAdvisor !== null) reason = choices.passOn ? 'passed on' : 'reassigned';
	const assignment = { advisor, leftAsItWas: false, reason, previousAdvisor, passedOver };
	return { assignment: { ...assignment, handoffs: passedOver.length }, eligible };
}
