// The advisors of the roster who may take one lead: present, not passed over, and fitting it. An
// advisor with a rule the lead fits comes first; advisors without a rule take the leads that no
// one's rule fits. The turns (advisorTurns.ts) then choose among these alone.

import type { LeadForRule } from './advisorRules';
import { describeLeadForRules, fits } from './advisorRules';
import type { Advisor } from './roster';

export interface Eligible {
	advisors: Advisor[];
	/** Why no one is left, when `advisors` is empty: a sentence without the lead's ID. */
	why?: string;
}

/** Available advisors not in `passedOver` who fit the lead, else those without a rule. */
export function eligibleAdvisors(
	roster: Advisor[],
	lead: LeadForRule,
	passedOver: ReadonlySet<string>,
): Eligible {
	const present = roster.filter((advisor) => !advisor.away && !passedOver.has(advisor.userId));
	const fitting = present.filter((advisor) => advisor.rule && fits(advisor.rule, lead));
	if (fitting.length > 0) return { advisors: fitting };
	const withoutRule = present.filter((advisor) => !advisor.rule);
	if (withoutRule.length > 0) return { advisors: withoutRule };

	const names = (advisors: Advisor[]) => advisors.map((advisor) => advisor.userId).join(', ');
	const away = roster.filter((advisor) => advisor.away);
	const skipped = roster.filter((advisor) => !advisor.away && passedOver.has(advisor.userId));
	const reasons: string[] = [];
	if (skipped.length > 0) reasons.push(`passed over: ${names(skipped)}`);
	if (away.length > 0) reasons.push(`away: ${names(away)}`);
	if (present.length > 0) {
		reasons.push(`with a rule it does not fit (${describeLeadForRules(lead)}): ${names(present)}`);
	}
	return { advisors: [], why: `no available advisor is left (${reasons.join('; ')})` };
}
