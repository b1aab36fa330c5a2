// The opening hours the reroute example's trigger counts its wait in, and a move of the service's
// clock into them: runs of the example that let a wait pass start at an open moment, with enough
// open time ahead for the whole run, whatever the real time of day.

import { readFileSync } from 'fs';
import { join } from 'path';

import type { OpeningHours } from '../../nodes/shared/openingHours';
import {
	isOpenAt,
	nextOpeningAt,
	openMsBetween,
	parseOpeningHours,
} from '../../nodes/shared/openingHours';

const REROUTE_EXAMPLE = join(__dirname, '..', '..', 'examples', 'reroute-uncontacted-leads.json');
/** n8n's own default, which the harnesses keep: the zone of a workflow that sets none. */
export const N8N_DEFAULT_ZONE = 'America/New_York';
const HOUR = 3_600_000;

interface ServiceClock {
	clock(): { now: string };
	advanceClock(ms: number): unknown;
}

/** The trigger's Opening Hours, Time Zone (empty: n8n's default) and Closed Dates as shipped. */
export function rerouteExampleHours(): OpeningHours {
	const workflow = JSON.parse(readFileSync(REROUTE_EXAMPLE, 'utf8')) as {
		nodes: Array<{ type: string; parameters: Record<string, unknown> }>;
	};
	const trigger = workflow.nodes.find((node) => node.type.endsWith('leadConversationsPollTrigger'));
	const parameters = trigger?.parameters ?? {};
	const { schedule, problem } = parseOpeningHours({
		hours: parameters.openingHours,
		timeZone: String(parameters.timeZone ?? '') || N8N_DEFAULT_ZONE,
		closedDates: parameters.closedDates,
		fields: { hours: 'Opening Hours', timeZone: 'Time Zone', closedDates: 'Closed Dates' },
	});
	if (!schedule) throw new Error(`The reroute example's trigger: ${problem}`);
	return schedule;
}

/**
 * Moves the service's clock (forward only) to the first moment from which the schedule stays
 * open for `openAheadMs`; returns how far it moved.
 */
export function moveIntoOpenHours(
	control: ServiceClock,
	schedule: OpeningHours = rerouteExampleHours(),
	openAheadMs = 3 * HOUR,
): number {
	const now = Date.parse(control.clock().now);
	let at = nextOpeningAt(schedule, now);
	for (let tries = 0; at !== undefined && tries < 30; tries++) {
		if (openMsBetween(schedule, at, at + openAheadMs) === openAheadMs) break;
		at = nextOpeningAt(schedule, at + openAheadMs);
	}
	if (at === undefined) throw new Error(`No ${openAheadMs / HOUR} open hours ahead`);
	// Five minutes in: a wait that started while closed has then run 5 minutes, so a run that lets
	// 11 or 14 more pass ends a 15-minute wait as it would had it started at that moment.
	const moveMs = at > now ? at - now + 5 * 60_000 : 0;
	control.advanceClock(moveMs);
	return moveMs;
}

/** The first closed moment at or after `atMs`, to the minute. */
export function nextClosingAt(schedule: OpeningHours, atMs: number): number {
	let at = Math.ceil(atMs / 60_000) * 60_000;
	for (let steps = 0; isOpenAt(schedule, at) && steps < 14 * 24 * 60; steps++) at += 60_000;
	return at;
}

/** A wall time of the schedule's zone, like "Tue 21:50". */
export function wallTimeOf(schedule: OpeningHours, atMs: number): string {
	return new Intl.DateTimeFormat('en-US', {
		timeZone: schedule.timeZone,
		weekday: 'short',
		hour: '2-digit',
		minute: '2-digit',
		hourCycle: 'h23',
	})
		.format(atMs)
		.replace(',', '');
}
