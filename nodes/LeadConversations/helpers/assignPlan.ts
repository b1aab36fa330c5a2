// What Lead → Assign does with one lead once it is read: leave it, or give it to one of the
// advisors eligible for it (eligibleAdvisors.ts), never to one passed over, as chooseAdvisor.ts
// chooses among them. Pure: the turns, the load and the request are the operation's.

import type { Problem } from '../../shared/validation';
import { checkPlainId } from '../../shared/validation';
import type { LeadForRule } from './advisorRules';
import { textList } from './advisorRules';
import type { Choice } from './chooseAdvisor';
import type { Advisor } from './roster';
import { eligibleAdvisors } from './eligibleAdvisors';

export interface Assignment {
	/** The lead's advisor after this run (null: left without one). */
	advisor: string | null;
	leftAsItWas: boolean;
	reason: string;
	/** The lead's advisor before this run, null when it had none. */
	previousAdvisor: string | null;
	/** Skip Advisors and the advisor the lead was taken from, in that order, each once. */
	passedOver: string[];
	/** How many advisors the lead has been passed on from, this hand-off included. */
	handoffs: number;
	/** The advisor's leads in status assigned after this run, when the run counts them. */
	load?: number;
	/** The advisor's Capacity, when the roster sets one. */
	capacity?: number;
	/** When the advisor's shift starts, if no one was on shift (ISO 8601). */
	onShiftFrom?: string;
}

export interface AssignChoices {
	reassign: boolean;
	passOn: boolean;
	skip: string[];
}

export interface AssignPlan {
	assignment?: Assignment;
	/** The advisors the turns chose among (for giving a turn back). */
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
export function currentAdvisor(lead: { assigned_to?: unknown }): string | null {
	const current = lead.assigned_to;
	return typeof current === 'string' && current.trim() !== '' ? current : null;
}

/** Whether the lead needs the roster: it has no advisor, or Reassign or Pass On is on. */
export function needsAdvisor(lead: { assigned_to?: unknown }, choices: AssignChoices): boolean {
	return currentAdvisor(lead) === null || choices.reassign || choices.passOn;
}

/**
 * The plan for the lead `leadId`: `choose` chooses among the eligible advisors.
 * A lead with an advisor is left as it is unless Reassign or Pass On is on; Pass On never gives
 * it back to that advisor, and no one in Skip Advisors is ever picked.
 */
export function planAssignment(
	leadId: string,
	lead: LeadForRule & { assigned_to?: unknown },
	roster: Advisor[],
	choices: AssignChoices,
	choose: (eligible: Advisor[]) => Choice,
): AssignPlan {
	const previousAdvisor = currentAdvisor(lead);
	const unchanged = (advisor: string | null, reason: string): Assignment => ({
		advisor,
		leftAsItWas: true,
		reason,
		previousAdvisor,
		passedOver: [],
		handoffs: 0,
	});
	if (!needsAdvisor(lead, choices)) {
		return { assignment: unchanged(previousAdvisor, 'already had an advisor'), eligible: [] };
	}
	const excluded = new Set(choices.skip);
	if (choices.passOn && previousAdvisor !== null) excluded.add(previousAdvisor);
	const { advisors: eligible, why } = eligibleAdvisors(roster, lead, excluded);
	const verb = choices.passOn && previousAdvisor !== null ? 'passed on' : 'assigned';
	if (eligible.length === 0)
		return { eligible, problem: `Lead ${leadId} cannot be ${verb}: ${why}` };
	const choice = choose(eligible);
	if (choice.problem)
		return { eligible, problem: `Lead ${leadId} cannot be ${verb}: ${choice.problem}` };
	if (choice.advisor === undefined) {
		return { assignment: unchanged(previousAdvisor, choice.leave ?? ''), eligible: [] };
	}
	const advisor = choice.advisor;
	const note = choice.note ? ` (${choice.note})` : '';
	if (advisor === previousAdvisor) {
		const assignment = unchanged(advisor, `already had the advisor picked${note}`);
		if (choice.onShiftFrom) assignment.onShiftFrom = choice.onShiftFrom;
		return { assignment, eligible: choice.candidates };
	}
	const passedOver = [...choices.skip];
	if (previousAdvisor !== null && !passedOver.includes(previousAdvisor)) {
		passedOver.push(previousAdvisor);
	}
	let reason = 'assigned';
	if (previousAdvisor !== null) reason = choices.passOn ? 'passed on' : 'reassigned';
	reason += note;
	const assignment: Assignment = {
		advisor,
		leftAsItWas: false,
		reason,
		previousAdvisor,
		passedOver,
		handoffs: passedOver.length,
	};
	if (choice.onShiftFrom) assignment.onShiftFrom = choice.onShiftFrom;
	return {
		assignment,
		eligible: choice.candidates,
	};
}
