// One poll of each event: read what the service lists now, compare it with the stored position,
// and say which items to emit and where the position goes. Nothing is written here: the node
// writes the position once every read is complete, so a poll that fails changes nothing.

import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { LeadConditions } from '../shared/events/conditions';
import { unmetLeadCondition } from '../shared/events/conditions';
import { LEAD_API_CHANNEL } from '../shared/constants';
import type { LeadOutput, PollEvent } from './events';
import {
	POLL_EVENTS,
	TRANSFERRED,
	leadOutputItem,
	leadStatusItem,
	newLeadItem,
	transferredItem,
} from './events';
import type { NewLeadsPosition, StatusSets, StoredPosition } from './position';
import {
	POSITION_VERSION,
	advanceNewLeads,
	baselineNewLeads,
	enteredSince,
	idsOf,
} from './position';
import { readWholeList } from './reading';

export interface PollSettings {
	event: PollEvent;
	statuses: string[];
	conversationChannel: string;
	conditions: LeadConditions;
	/** Lead events: the event's fields, or Get Many's Flat columns. */
	output: LeadOutput;
	/** New or Updated Lead: the first pass announces every lead. */
	includeExisting: boolean;
}

/** A list whose records are "in the status" now, read whole on every poll. */
export interface WatchedList {
	key: string;
	path: string;
	query: IDataObject;
}

/** What one poll works from: the settings, the stored position and its time. */
export interface PollRound {
	settings: PollSettings;
	stored: StoredPosition | undefined;
	/** Epoch ms by which the poll must be done. */
	deadline: number;
	budgetMs: number;
	polledAt: string;
}

export interface PollOutcome {
	items: IDataObject[];
	position: StoredPosition;
}

/**
 * How far back the first poll looks for the newest lead. Leads created within this time before
 * activation are not announced; the mark starts at the latest of them (on the service's clock).
 */
export const BASELINE_LOOKBACK_MS = 24 * 60 * 60_000;

/** A lead's channel never changes, so one chosen channel can be filtered by the service. */
function serviceSideChannel(channels: string[] | undefined): string | undefined {
	return channels?.length === 1 && channels[0] !== LEAD_API_CHANNEL ? channels[0] : undefined;
}

export function watchedLists(settings: PollSettings): WatchedList[] {
	if (settings.event === POLL_EVENTS.conversationTransferred) {
		const channel = settings.conversationChannel || undefined;
		return [{ key: TRANSFERRED, path: '/conversations', query: { status: TRANSFERRED, channel } }];
	}
	const channel = serviceSideChannel(settings.conditions.channels);
	return [...new Set(settings.statuses)].sort().map((status) => ({
		key: status,
		path: '/leads',
		query: { status, channel },
	}));
}

/** What the position is about: changing it in the node starts again from a baseline. */
export function watchOf(settings: PollSettings): string {
	if (
		settings.event === POLL_EVENTS.newLead ||
		settings.event === POLL_EVENTS.leadChanged ||
		settings.event === POLL_EVENTS.assignedNotContacted ||
		settings.event === POLL_EVENTS.assignedContacted
	) {
		return settings.event;
	}
	const lists = watchedLists(settings).map(
		({ key, query }) => `${key}@${String(query.channel ?? '*')}`,
	);
	return `${settings.event}:${lists.join(',')}`;
}

function tooLongError(context: IPollFunctions, what: string, budgetMs: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`Reading ${what} did not fit in the ${Math.round(budgetMs / 1000)} s a poll may take`,
		{
			description:
				'Nothing was started and the position is unchanged. Narrow what the trigger watches (a channel) or use the webhook trigger.',
		},
	);
}

export async function pollStatuses(
	context: IPollFunctions,
	round: PollRound,
): Promise<PollOutcome> {
	const { settings, stored, deadline, budgetMs, polledAt } = round;
	const inStatus: StatusSets = {};
	const items: IDataObject[] = [];
	const conditions = conditionsBesideStatus(settings);
	for (const list of watchedLists(settings)) {
		const read = await readWholeList(context, list.path, list.query, deadline);
		if (!read.complete) throw tooLongError(context, `every ${list.key} record`, budgetMs);
		inStatus[list.key] = idsOf(read.records);
		if (!stored) continue;
		for (const record of enteredSince(stored.inStatus?.[list.key] ?? [], read.records)) {
			if (list.key === TRANSFERRED) {
				items.push(transferredItem(record, polledAt));
				continue;
			}
			const item = leadStatusItem(record, list.key, polledAt);
			if (unmetLeadCondition(String(item.event), record, conditions) === undefined) {
				items.push(leadOutputItem(record, settings.output, () => item));
			}
		}
	}
	return { items, position: { version: POSITION_VERSION, watch: watchOf(settings), inStatus } };
}

function latestCreatedAt(records: IDataObject[], since: string): string {
	let latest = since;
	for (const { created_at: at } of records) {
		if (typeof at === 'string' && Date.parse(at) > Date.parse(latest)) latest = at;
	}
	return latest;
}

/** After a read that did not fit: half the span, up to the latest creation time seen so far. */
function narrowed(previous: NewLeadsPosition, records: IDataObject[]): NewLeadsPosition {
	const horizon = latestCreatedAt(records, previous.horizon ?? previous.mark);
	const span = previous.window ?? Date.parse(horizon) - Date.parse(previous.mark);
	return { ...previous, horizon, window: Math.floor(span / 2) };
}

/**
 * After a complete read of mark..end: a window that ended before the horizon holds every lead
 * it ever will, so the mark moves to its end even when the window was empty.
 */
function closeWindow(
	previous: NewLeadsPosition,
	advanced: NewLeadsPosition,
	end: number,
	records: IDataObject[],
): NewLeadsPosition {
	const next = { ...advanced };
	const horizonMs = Date.parse(previous.horizon ?? previous.mark);
	if (end < horizonMs && Date.parse(next.mark) < end) {
		next.mark = new Date(end).toISOString();
		next.atMark = idsOf(records.filter((lead) => Date.parse(String(lead.created_at)) === end));
	}
	next.window = previous.window! * 2;
	if (Date.parse(next.mark) + next.window >= horizonMs) {
		delete next.window;
		delete next.horizon;
	}
	return next;
}

export async function pollNewLeads(
	context: IPollFunctions,
	round: PollRound,
): Promise<PollOutcome> {
	const { settings, stored, deadline, budgetMs, polledAt } = round;
	const outcome = (newLeads: NewLeadsPosition, items: IDataObject[] = []): PollOutcome => ({
		items,
		position: { version: POSITION_VERSION, watch: POLL_EVENTS.newLead, newLeads },
	});

	const previous = stored?.newLeads;
	if (!previous) {
		const since = new Date(Date.now() - BASELINE_LOOKBACK_MS).toISOString();
		const read = await readWholeList(context, '/leads', { created_after: since }, deadline);
		// Too many leads of the last day to read: start at this moment instead.
		return outcome(
			read.complete ? baselineNewLeads(since, read.records) : { mark: polledAt, atMark: [] },
		);
	}

	const markMs = Date.parse(previous.mark);
	const before =
		previous.window === undefined ? undefined : new Date(markMs + previous.window).toISOString();
	const read = await readWholeList(
		context,
		'/leads',
		{ created_after: previous.mark, created_before: before },
		deadline,
	);
	if (!read.complete) {
		const next = narrowed(previous, read.records);
		if (next.window! < 1) {
			throw tooLongError(context, 'the leads created in one millisecond', budgetMs);
		}
		// Nothing is announced; the next poll reads a narrower span of creation times.
		return outcome(next);
	}

	const advanced = advanceNewLeads(previous, read.records);
	const next =
		previous.window === undefined
			? advanced.position
			: closeWindow(previous, advanced.position, markMs + previous.window, read.records);
	return outcome(
		next,
		advanced.fresh.map((lead) =>
			leadOutputItem(lead, settings.output, () => newLeadItem(lead, polledAt)),
		),
	);
}

/** The lead conditions checked once a lead is in a watched status; the status list is the event. */
export function conditionsBesideStatus(settings: PollSettings): LeadConditions {
	return { ...settings.conditions, statuses: undefined };
}
