// The settings both assigned-lead events read before any request: what counts as contact and,
// for Assigned Lead Contacted, the opening hours its response is also counted in.

import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OpeningHours } from '../shared/openingHours';
import type { ContactRule } from './contactRule';
import { EXAMPLE_NOTICES, NOTICE_GRACE_MS, noticesOf } from './contactRule';
import type { PollEvent } from './events';
import { POLL_EVENTS } from './events';
import type { WaitClock } from './waitClock';
import { readWaitClock } from './waitClock';

export interface AssignedSettings {
	/** Assigned Lead Not Contacted: the wait and how it counts. */
	wait?: WaitClock;
	/** Both events: what counts as contact. */
	rule?: ContactRule;
	/** Assigned Lead Contacted: the opening hours its response_open_minutes counts in. */
	hours?: OpeningHours;
}

/**
 * What counts as contact: Workflow Notices from version 2 (and for Assigned Lead Contacted, which
 * is new); version 1 of Assigned Lead Not Contacted keeps its 60 s grace. A wrong value fails
 * before any request.
 */
function readContactRule(context: IPollFunctions, event: PollEvent): ContactRule {
	if (context.getNode().typeVersion < 2 && event === POLL_EVENTS.assignedNotContacted) {
		return { graceMs: NOTICE_GRACE_MS };
	}
	const notices = noticesOf(
		context.getNodeParameter('workflowNotices', EXAMPLE_NOTICES.join('\n')),
	);
	if (typeof notices === 'string') throw new NodeOperationError(context.getNode(), notices);
	return { notices };
}

/** The rule and the hours of the chosen event (nothing for the other events). */
export function readAssignedSettings(
	context: IPollFunctions,
	event: PollEvent,
): Omit<AssignedSettings, 'wait'> {
	if (event === POLL_EVENTS.assignedContacted) {
		return {
			rule: readContactRule(context, event),
			hours: readWaitClock(context, 0).openingHours,
		};
	}
	if (event === POLL_EVENTS.assignedNotContacted) return { rule: readContactRule(context, event) };
	return {};
}
