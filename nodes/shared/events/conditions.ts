/**
 * Conditions a lead event must meet before an execution starts, so that, for example,
 * "qualified leads scoring 80 or more" costs no execution for the others.
 * An empty list or an unset minimum means "any".
 */
export interface LeadConditions {
	minimumScore?: number;
	intents?: string[];
	channels?: string[];
	statuses?: string[];
}

/** Lead events carry the lead's fields in `data` (`lead.created`, `lead.qualified`, ...). */
export function isLeadEvent(event: string): boolean {
	return event.startsWith('lead.');
}

/**
 * The first condition the event does not meet, in words for the log, or `undefined` when it
 * meets them all. Only lead events are checked: other events carry no score, intent or lead
 * status and always pass. A lead event lacking a field that a condition is set on does not
 * meet that condition.
 */
export function unmetLeadCondition(
	event: string,
	data: Record<string, unknown>,
	conditions: LeadConditions,
): string | undefined {
	if (!isLeadEvent(event)) return undefined;

	const { minimumScore, intents, channels, statuses } = conditions;
	if (minimumScore !== undefined) {
		const score = data.score;
		if (typeof score !== 'number' || score < minimumScore) {
			return `score ${String(score)} is below the minimum score ${minimumScore}`;
		}
	}
	const listed: Array<[string, string[] | undefined]> = [
		['intent', intents],
		['channel', channels],
		['status', statuses],
	];
	for (const [field, allowed] of listed) {
		if (!allowed?.length) continue;
		const value = data[field];
		if (typeof value !== 'string' || !allowed.includes(value)) {
			return `${field} ${String(value)} is not one of ${allowed.join(', ')}`;
		}
	}
	return undefined;
}
