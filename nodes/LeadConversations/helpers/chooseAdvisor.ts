// Which of the advisors eligible for a lead (eligibleAdvisors.ts) gets it: those on shift (or, when
// no one is, those whose shift starts first: onShift.ts), of them those with room under their
// Capacity, then the node's turns among them. When everyone eligible is full, the node's
// When Everyone Is Full decides: the least loaded anyway, nobody, or an error. Pure: the load is
// counted by advisorLoad.ts and the turns are advisorTurns.ts's.

import type { AdvisorLoad } from './advisorLoad';
import { loadOf } from './advisorLoad';
import { onShift } from './onShift';
import type { Advisor } from './roster';

export const WHEN_FULL = ['leastLoaded', 'leave', 'error'] as const;
export type WhenFull = (typeof WHEN_FULL)[number];

export interface ChoiceRules {
	/** The moment of the assignment on the service's clock (epoch ms). */
	atMs: number;
	/** The run's count of leads in status `assigned` per advisor; absent when none is kept. */
	load?: AdvisorLoad;
	whenFull: WhenFull;
	/** The turns: one of the advisors given. */
	pick: (candidates: Advisor[]) => string;
}

export interface Choice {
	/** The advisor chosen; absent when the lead is left (`leave`) or cannot be given (`problem`). */
	advisor?: string;
	/** The advisors the turns chose among (for giving a turn back). */
	candidates: Advisor[];
	/** Said after the usual reason, e.g. why an advisor over their capacity got the lead. */
	note?: string;
	/** When no one was on shift: when the advisor's shift starts (ISO 8601). */
	onShiftFrom?: string;
	/** Why the lead is left as it is (When Everyone Is Full: Leave Unassigned). */
	leave?: string;
	/** Why the lead cannot be given to anyone (When Everyone Is Full: Stop With an Error). */
	problem?: string;
}

const isFull = (advisor: Advisor, load: AdvisorLoad) =>
	advisor.capacity !== undefined && loadOf(load, advisor.userId) >= advisor.capacity;

/** Fewest leads first; on a tie the higher weight, then the first in the roster. */
export function leastLoaded(candidates: Advisor[], load: AdvisorLoad): string {
	let best = candidates[0];
	for (const advisor of candidates.slice(1)) {
		const difference = loadOf(load, advisor.userId) - loadOf(load, best.userId);
		if (difference < 0 || (difference === 0 && advisor.weight > best.weight)) best = advisor;
	}
	return best.userId;
}

function fullList(advisors: Advisor[], load: AdvisorLoad): string {
	return advisors
		.map((a) => `${a.userId} ${loadOf(load, a.userId)} of ${String(a.capacity)}`)
		.join(', ');
}

/** The choice among `eligible` (not empty) for one lead. */
export function chooseAdvisor(eligible: Advisor[], rules: ChoiceRules): Choice {
	const { load } = rules;
	const shift = onShift(eligible, rules.atMs);
	const waiting: Pick<Choice, 'note' | 'onShiftFrom'> = {};
	if (shift.fromMs !== undefined) {
		waiting.onShiftFrom = new Date(shift.fromMs).toISOString();
		waiting.note = `no one who fits is on shift; on shift from ${waiting.onShiftFrom}`;
	}
	const present = shift.advisors;
	const open = load ? present.filter((advisor) => !isFull(advisor, load)) : present;
	if (open.length > 0) return { advisor: rules.pick(open), candidates: open, ...waiting };

	const full = `everyone who fits is full (${fullList(present, load as AdvisorLoad)})`;
	if (rules.whenFull === 'error') return { candidates: [], problem: full };
	if (rules.whenFull === 'leave') return { candidates: [], leave: `left unassigned: ${full}` };
	const advisor = leastLoaded(present, load as AdvisorLoad);
	const note = [waiting.note, `the least loaded, as ${full}`].filter(Boolean).join('; ');
	return { advisor, candidates: [], ...waiting, note };
}
