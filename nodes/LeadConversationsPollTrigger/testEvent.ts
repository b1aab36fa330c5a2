// "Fetch Test Event": the latest records the chosen event is about, so that fields can be
// mapped before the workflow is activated. One page per list; the position is not touched.

import type { IDataObject, IPollFunctions } from 'n8n-workflow';

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
import { sampleItem } from './notContacted';
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

export async function testEventItems(
	context: IPollFunctions,
	settings: PollSettings,
	polledAt: string,
	rule?: ContactRule,
): Promise<IDataObject[]> {
	const { output } = settings;
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
	if (settings.event === POLL_EVENTS.assignedContacted && rule !== undefined) {
		// The most recently assigned leads whose advisor has really written since: 1 + 2 per lead.
		const leads = newestFirst(
			await firstPage(context, '/leads', { status: 'assigned' }),
			(lead) => lead.updated_at,
		);
		return await recentContacts(context, leads.slice(0, TEST_EVENT_RECORDS), rule, polledAt);
	}
	if (settings.event === POLL_EVENTS.assignedNotContacted) {
		// The most recently assigned leads, as the event would show them: nothing is checked.
		const leads = newestFirst(
			await firstPage(context, '/leads', { status: 'assigned' }),
			(lead) => lead.updated_at,
		);
		return leads.slice(0, TEST_EVENT_RECORDS).map((lead) => sampleItem(lead, polledAt));
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
