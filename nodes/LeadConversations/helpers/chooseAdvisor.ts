// Which of the advisors eligible for a lead (eligibleAdvisors.ts) gets it: those with room under
// their Capacity, then the node's turns among them. When everyone eligible is full, the node's
// When Everyone Is Full decides: the least loaded anyway, nobody, or an error. Pure: the load is
// counted by advisorLoad.ts and the turns are advisorTurns.ts's.

import type { AdvisorLoad } from './advisorLoad';
import { loadOf } from './advisorLoad';
import type { Advisor } from './roster';

export const WHEN_FULL = ['leastLoaded', 'leave', 'error'] as const;
export type WhenFull = (typeof WHEN_FULL)[number];

export interface ChoiceRules {
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
	const open = load ? eligible.filter((advisor) => !isFull(advisor, load)) : eligible;
	if (open.length > 0) return { advisor: rules.pick(open), candidates: open };

	const full = `everyone who fits is full (${fullList(eligible, load as AdvisorLoad)})`;
	if (rules.whenFull === 'error') return { candidates: [], problem: full };
	if (rules.whenFull === 'leave') return { candidates: [], leave: `left unassigned: ${full}` };
	const advisor = leastLoaded(eligible, load as AdvisorLoad);
	return { advisor, candidates: [], note: `the least loaded, as ${full}` };
}
