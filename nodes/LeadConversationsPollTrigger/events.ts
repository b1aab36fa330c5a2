// The items a poll emits: the `data` of the webhook event that matches (docs/service-contract.md §8), plus
// `event` and `polled_at`, so a workflow can move between the two triggers without rewriting
// its expressions.

import type { IDataObject } from 'n8n-workflow';

import { flattenLead } from '../shared/flatLead';

export const POLL_EVENTS = {
	newLead: 'newLead',
	leadChanged: 'leadChanged',
	leadStatus: 'leadStatus',
	conversationTransferred: 'conversationTransferred',
	assignedNotContacted: 'assignedNotContacted',
	assignedContacted: 'assignedContacted',
} as const;
export type PollEvent = (typeof POLL_EVENTS)[keyof typeof POLL_EVENTS];

/**
 * Lead statuses a poll can watch. `new` is the New Lead event; `closed` and `lost` are where
 * leads end up, so their lists only grow and a poll would read ever more pages to find changes.
 */
export const WATCHABLE_LEAD_STATUSES = ['in_conversation', 'qualified', 'assigned'] as const;
export const TRANSFERRED = 'transferred';

/** Fields of `lead.qualified`'s data (spec: Events), which `lead.created` also carries. */
const LEAD_EVENT_FIELDS = [
	'id',
	'name',
	'phone',
	'score',
	'intent',
	'vehicle_interest',
	'channel',
	'status',
];
const CONVERSATION_EVENT_FIELDS = ['id', 'lead_id', 'channel', 'status'];

const eventOfStatus: Record<string, { name: string; extra: string[] }> = {
	qualified: { name: 'lead.qualified', extra: [] },
	assigned: { name: 'lead.assigned', extra: ['assigned_to'] },
	in_conversation: { name: 'lead.in_conversation', extra: [] },
};

function pick(record: IDataObject, fields: string[]): IDataObject {
	const picked: IDataObject = {};
	for (const field of fields) picked[field] = record[field] ?? null;
	return picked;
}

export function newLeadItem(lead: IDataObject, polledAt: string): IDataObject {
	return { ...pick(lead, LEAD_EVENT_FIELDS), event: 'lead.created', polled_at: polledAt };
}

export function leadStatusItem(lead: IDataObject, status: string, polledAt: string): IDataObject {
	const { name, extra } = eventOfStatus[status] ?? { name: `lead.${status}`, extra: [] };
	return { ...pick(lead, [...LEAD_EVENT_FIELDS, ...extra]), event: name, polled_at: polledAt };
}

/**
 * `conversation.status_changed` data. A poll sees states, not moves: the status before is not
 * known, so `previous_status` is null.
 */
export function transferredItem(conversation: IDataObject, polledAt: string): IDataObject {
	return {
		...pick(conversation, CONVERSATION_EVENT_FIELDS),
		previous_status: null,
		event: 'conversation.status_changed',
		polled_at: polledAt,
	};
}

/**
 * New or Updated Lead: the whole lead as the service returned it. `lead.created` while it has
 * not changed since its creation, `lead.updated` after: a name of this package's own (the
 * service sends no such event), kept because workflows already test for it.
 */
export function changedLeadItem(lead: IDataObject, polledAt: string): IDataObject {
	const created = lead.created_at !== undefined && lead.created_at === lead.updated_at;
	return { ...lead, event: created ? 'lead.created' : 'lead.updated', polled_at: polledAt };
}

export const LEAD_OUTPUTS = { event: 'event', flat: 'flat' } as const;
export type LeadOutput = (typeof LEAD_OUTPUTS)[keyof typeof LEAD_OUTPUTS];

/** Output: Flat is the same columns as Lead → Get Many's, read from the lead itself. */
export function leadOutputItem(
	lead: IDataObject,
	output: LeadOutput,
	eventItem: () => IDataObject,
): IDataObject {
	return output === LEAD_OUTPUTS.flat ? flattenLead(lead) : eventItem();
}
