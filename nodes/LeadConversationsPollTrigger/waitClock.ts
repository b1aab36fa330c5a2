// How Assigned Lead Not Contacted counts its wait: around the clock, or only while the
// dealership is open. Both give the instant the wait ends; the rules in notContacted.ts compare
// the service's clock with it and need not know which.

import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OpeningHours } from '../shared/openingHours';
import { openEndOf, openMsBetween, parseOpeningHours } from '../shared/openingHours';

export const COUNT_WAIT = {
	aroundTheClock: 'aroundTheClock',
	openingHours: 'openingHours',
} as const;

export interface WaitClock {
	waitMs: number;
	/** Set when the wait counts only while open. */
	openingHours?: OpeningHours;
}

/** The instant a wait that started at `startMs` ends (Infinity when the hours never open again). */
export function waitEndOf(wait: WaitClock, startMs: number): number {
	return wait.openingHours
		? openEndOf(wait.openingHours, startMs, wait.waitMs)
		: startMs + wait.waitMs;
}

/** What the item says about the wait: when it ended, and how many open minutes it lasted. */
export function waitFacts(wait: WaitClock, startMs: number): IDataObject {
	const endMs = waitEndOf(wait, startMs);
	if (!Number.isFinite(endMs)) return { wait_ended_at: null, open_minutes: 0 };
	const openMs = wait.openingHours ? openMsBetween(wait.openingHours, startMs, endMs) : wait.waitMs;
	return { wait_ended_at: new Date(endMs).toISOString(), open_minutes: openMs / 60_000 };
}

/**
 * The wait's clock from the node's fields; a schedule, zone or date that does not read fails
 * before any request, naming the field. An empty Time Zone is the workflow's.
 */
export function readWaitClock(context: IPollFunctions, waitMs: number): WaitClock {
	const count = context.getNodeParameter('countWait', COUNT_WAIT.aroundTheClock);
	if (count !== COUNT_WAIT.openingHours) return { waitMs };
	const zone = String(context.getNodeParameter('timeZone', '') ?? '').trim();
	const { schedule, problem } = parseOpeningHours({
		hours: context.getNodeParameter('openingHours', ''),
		timeZone: zone === '' ? context.getTimezone() : zone,
		closedDates: context.getNodeParameter('closedDates', ''),
		fields: { hours: 'Opening Hours', timeZone: 'Time Zone', closedDates: 'Closed Dates' },
	});
	if (!schedule) {
		throw new NodeOperationError(context.getNode(), problem ?? 'Opening Hours did not read', {
			description: 'Nothing was read from the service and no wait was noted.',
		});
	}
	return { waitMs, openingHours: schedule };
}
