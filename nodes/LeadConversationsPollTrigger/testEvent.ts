// A test run (Fetch Test Event, or Execute workflow in the editor): what the chosen event is about
// now, so that fields can be mapped before the workflow is published. No position moves.
// Assigned Lead Not Contacted checks contact as a poll does and gives only leads nobody
// contacted; the other events give the latest records as they are now, each named by what the
// record itself shows. With nothing to give, the run stops with an error naming the event, as
// n8n's own polling triggers do, so that no step after the trigger runs.

import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { displayNameOf } from '../shared/labels';
import { unmetLeadCondition } from '../shared/events/conditions';
import { PAGE_SIZE_MAX } from '../shared/constants';
import type { ApiContext } from '../shared/transport';
import { apiRequest } from '../shared/transport';
import { readListPage } from '../shared/transport/pagination';
import {
	POLL_EVENTS,
	TRANSFERRED,
	changedLeadItem,
	leadOutputItem,
	leadStatusItem,
	newLeadItem,
	transferredItem,
} from './events';
import { recentContacts } from './contactedPoll';
import type { ContactRule } from './contactRule';
import type { OpeningHours } from '../shared/openingHours';
import type { WaitClock } from './waitClock';
import { WAIT_UNITS } from './notContacted';
import { TEST_RUN_CHECKS, notContactedNow } from './notContactedPoll';
import type { PollSettings } from './watchers';
import { conditionsBesideStatus, watchedLists } from './watchers';

export const TEST_EVENT_RECORDS = 3;

async function firstPage(
	context: IPollFunctions,
	path: string,
	query: IDataObject,
): Promise<IDataObject[]> {
	const { body } = await apiRequest.call(context as unknown as ApiContext, 'GET', path, {
		qs: { ...query, limit: PAGE_SIZE_MAX },
	});
	return readListPage<IDataObject>(body)?.records ?? [];
}

/** Newest first by the given time field; records without it go last. */
function newestFirst<T>(entries: T[], timeOf: (entry: T) => unknown): T[] {
	const at = (entry: T) => {
		const value = timeOf(entry);
		return typeof value === 'string' ? Date.parse(value) : -Infinity;
	};
	return [...entries].sort((a, b) => at(b) - at(a));
}

export interface TestRound {
	polledAt: string;
	/** Assigned Lead Not Contacted's wait. */
	wait?: WaitClock;
	/** Assigned Lead Contacted: the opening hours of response_open_minutes. */
	hours?: OpeningHours;
	/** What counts as contact, for both assigned-lead events. */
	rule?: ContactRule;
	/** Epoch ms by which the run must be done. */
	deadline: number;
	budgetMs: number;
}

/** "15 minutes", "2 hours", "1 day": the wait as the fields set it. */
export function waitText(waitMs: number): string {
	const [unit, ms] = Object.entries(WAIT_UNITS)
		.reverse()
		.find(([, unitMs]) => waitMs % unitMs === 0) ?? ['minutes', WAIT_UNITS.minutes];
	const amount = waitMs / ms;
	return `${amount} ${amount === 1 ? unit.slice(0, -1) : unit}`;
}

const statusList = (statuses: string[]) => statuses.map(displayNameOf).join(' or ');

/** The error of a test run that found nothing: what was looked for, and how to get an item. */
function nothingNow(
	context: IPollFunctions,
	settings: PollSettings,
	round: TestRound,
	assigned = 0,
): NodeOperationError {
	const [message, description] = (() => {
		switch (settings.event) {
			case POLL_EVENTS.assignedNotContacted:
				return [
					'No assigned lead is waiting now',
					`None of the ${assigned} assigned leads has waited ${waitText(round.wait?.waitMs ?? 0)} since its last update (updated_at, on the service's clock) without a message from a person. A test run gives only such leads, as a poll would, and changes nothing. To try the steps after the trigger, assign a lead and let the wait pass, or pin sample data to this node.`,
				];
			case POLL_EVENTS.assignedContacted:
				return [
					'No assigned lead has been reached by its advisor yet',
					`None of the ${assigned} most recently updated assigned leads has a message from its advisor since its last update (updated_at), other than the Workflow Notices. A test run gives only contacts really made, as a poll would, and changes nothing. To try the steps after the trigger, write to an assigned lead as its advisor, or pin sample data to this node.`,
				];
			case POLL_EVENTS.conversationTransferred:
				return [
					'No conversation is handed to a human now',
					'A test run gives the latest conversations in Transferred. Try again once one is.',
				];
			case POLL_EVENTS.leadStatus:
				return [
					`No lead is in ${statusList(settings.statuses)} now`,
					'A test run gives the latest leads in the chosen statuses that pass the filters. Try again once one is.',
				];
			default:
				return [
					'The account has no lead yet',
					'A test run gives the latest leads as they are now. Try again once the service has one.',
				];
		}
	})();
	return new NodeOperationError(context.getNode(), message, { description });
}

/** The items of a test run; throws when there are none. */
export async function testEventItems(
	context: IPollFunctions,
	settings: PollSettings,
	round: TestRound,
): Promise<IDataObject[]> {
	const items = await latestItems(context, settings, round);
	if (!Array.isArray(items)) throw nothingNow(context, settings, round, items.assigned);
	if (items.length === 0) throw nothingNow(context, settings, round);
	return items;
}

async function latestItems(
	context: IPollFunctions,
	settings: PollSettings,
	round: TestRound,
): Promise<IDataObject[] | { assigned: number }> {
	const { output } = settings;
	const { polledAt } = round;
	if (settings.event === POLL_EVENTS.newLead) {
		const leads = newestFirst(await firstPage(context, '/leads', {}), (lead) => lead.created_at);
		return leads
			.slice(0, TEST_EVENT_RECORDS)
			.map((lead) => leadOutputItem(lead, output, () => newLeadItem(lead, polledAt)));
	}
	if (settings.event === POLL_EVENTS.leadChanged) {
		const leads = newestFirst(await firstPage(context, '/leads', {}), (lead) => lead.updated_at);
		return leads
			.slice(0, TEST_EVENT_RECORDS)
			.map((lead) => leadOutputItem(lead, output, () => changedLeadItem(lead, polledAt)));
	}
	if (settings.event === POLL_EVENTS.assignedContacted && round.rule !== undefined) {
		// Contacts really made on the most recently updated assigned leads: 1 + 2 per lead checked.
		const leads = newestFirst(
			await firstPage(context, '/leads', { status: 'assigned' }),
			(lead) => lead.updated_at,
		);
		const checked = leads.slice(0, TEST_RUN_CHECKS);
		const { rule, deadline, hours } = round;
		const found = await recentContacts(context, checked, { rule, polledAt, deadline, hours });
		return found.length > 0 ? found.slice(0, TEST_EVENT_RECORDS) : { assigned: checked.length };
	}
	if (settings.event === POLL_EVENTS.assignedNotContacted && round.rule !== undefined) {
		const { wait = { waitMs: 0 }, rule, deadline, budgetMs } = round;
		const found = await notContactedNow(
			context,
			{ wait, rule, deadline, budgetMs, polledAt },
			TEST_EVENT_RECORDS,
		);
		return found.items.length > 0 ? found.items : { assigned: found.assigned };
	}
	const conditions = conditionsBesideStatus(settings);
	const candidates: Array<{ updatedAt: unknown; item: IDataObject }> = [];
	for (const list of watchedLists(settings)) {
		for (const record of await firstPage(context, list.path, list.query)) {
			if (list.key === TRANSFERRED) {
				candidates.push({ updatedAt: record.updated_at, item: transferredItem(record, polledAt) });
				continue;
			}
			const item = leadStatusItem(record, list.key, polledAt);
			if (unmetLeadCondition(String(item.event), record, conditions) === undefined) {
				candidates.push({
					updatedAt: record.updated_at,
					item: leadOutputItem(record, output, () => item),
				});
			}
		}
	}
	return newestFirst(candidates, (candidate) => candidate.updatedAt)
		.slice(0, TEST_EVENT_RECORDS)
		.map((candidate) => candidate.item);
}
