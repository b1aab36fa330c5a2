// "From List" of the resource locators. The service has no text search: each call reads a page
// of up to 100 records (from the cursor n8n hands back as paginationToken) and keeps the records
// whose name, phone, email or ID contain what the user typed; with a search text it reads a few
// more pages when the first ones hold too few matches. The conversation lists name each row by
// its lead, read with one GET per lead on the page (leadNames.ts).

import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import {
	CONVERSATION_STATUS_OPEN,
	PAGE_SIZE_MAX,
	TRANSCRIPT_CHANNEL,
} from '../../shared/constants';
import { displayNameOf } from '../../shared/labels';
import { apiRequest } from '../../shared/transport';
import { readListPage } from '../../shared/transport/pagination';
import { leadNames } from './leadNames';

function matches(filter: string | undefined, ...fields: unknown[]): boolean {
	if (!filter) return true;
	const needle = filter.trim().toLowerCase();
	return fields.some((field) => typeof field === 'string' && field.toLowerCase().includes(needle));
}

/** With a search text, pages are read until enough matches are found, but never too many. */
const ENOUGH_MATCHES = 20;
const MAX_PAGES_PER_SEARCH = 5;

async function searchPage(
	this: ILoadOptionsFunctions,
	path: string,
	query: IDataObject,
	filter: string | undefined,
	paginationToken: string | undefined,
	toItems: (
		this: ILoadOptionsFunctions,
		records: IDataObject[],
	) => Promise<INodeListSearchItems[]> | INodeListSearchItems[],
	pageSize = PAGE_SIZE_MAX,
): Promise<INodeListSearchResult> {
	const results: INodeListSearchItems[] = [];
	let cursor = paginationToken;
	for (let pages = 0; pages < (filter ? MAX_PAGES_PER_SEARCH : 1); pages++) {
		const qs: IDataObject = cursor ? { cursor, limit: pageSize } : { ...query, limit: pageSize };
		const { body } = await apiRequest.call(this, 'GET', path, { qs });
		const page = readListPage<IDataObject>(body);
		if (!page) return { results };
		results.push(...(await toItems.call(this, page.records)));
		cursor = page.hasMore ? page.nextCursor : undefined;
		if (!cursor || results.length >= ENOUGH_MATCHES) break;
	}
	return { results, paginationToken: cursor };
}

export async function searchLeads(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage.call(this, '/leads', {}, filter, paginationToken, (leads) =>
		leads
			.filter((lead) => matches(filter, lead.name, lead.phone, lead.email, lead.id))
			.map((lead) => ({
				name: `${String(lead.name)} (${String(lead.phone)})`,
				value: String(lead.id),
			})),
	);
}

export async function searchAgents(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage.call(this, '/agents', {}, filter, paginationToken, (agents) =>
		agents
			.filter((agent) => matches(filter, agent.name, agent.id))
			.map((agent) => ({
				name: `${String(agent.name)} (${String(agent.status)})`,
				value: String(agent.id),
			})),
	);
}

/** The lead chosen in "Lead (to Narrow the List)", when there is one. */
function chosenLeadId(this: ILoadOptionsFunctions): string | undefined {
	const chosen = this.getCurrentNodeParameter('lead') as { value?: unknown } | string | undefined;
	const value = chosen && typeof chosen === 'object' ? chosen.value : chosen;
	const id = typeof value === 'string' ? value.trim() : '';
	// An expression cannot be resolved while the list is shown: list all instead.
	return id !== '' && !id.startsWith('=') ? id : undefined;
}

/**
 * Rows readable at a glance: the lead's name, the channel and the last message's date and time,
 * with the status when it is not open ("María Gómez · Chat App · 2026-03-02 14:05").
 */
async function conversationItems(
	this: ILoadOptionsFunctions,
	conversations: IDataObject[],
	filter: string | undefined,
): Promise<INodeListSearchItems[]> {
	const names = await leadNames.call(
		this,
		conversations.map((conversation) => conversation.lead_id),
	);
	return conversations.flatMap((conversation) => {
		const leadName = names.get(String(conversation.lead_id)) ?? String(conversation.lead_id);
		const channel = displayNameOf(String(conversation.channel ?? ''));
		const status = String(conversation.status ?? '');
		const when = String(conversation.last_message_at ?? '')
			.slice(0, 16)
			.replace('T', ' ');
		if (!matches(filter, leadName, channel, status, conversation.id, conversation.lead_id)) {
			return [];
		}
		const parts = [leadName, channel];
		if (status !== CONVERSATION_STATUS_OPEN) parts.push(displayNameOf(status));
		if (when !== '') parts.push(when);
		return [{ name: parts.join(' · '), value: String(conversation.id) }];
	});
}

/** Fewer rows per page than other lists: each distinct lead on a page costs a request. */
const CONVERSATIONS_PER_PAGE = 25;

/** One page of the conversations matching `query`, of the chosen lead if one is chosen. */
async function searchConversationPage(
	this: ILoadOptionsFunctions,
	query: IDataObject,
	keep: (conversation: IDataObject) => boolean,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const leadId = chosenLeadId.call(this);
	return await searchPage.call(
		this,
		'/conversations',
		leadId ? { ...query, lead_id: leadId } : query,
		filter,
		paginationToken,
		async function (this: ILoadOptionsFunctions, conversations: IDataObject[]) {
			return await conversationItems.call(this, conversations.filter(keep), filter);
		},
		CONVERSATIONS_PER_PAGE,
	);
}

/** Every conversation (Conversation → Get), optionally of the chosen lead. */
export async function searchConversations(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchConversationPage.call(this, {}, () => true, filter, paginationToken);
}

/**
 * Only the conversations that can take a message (Send Message): open ones, asked of the
 * service, and not phone calls, which hold a transcript and refuse messages.
 */
export async function searchOpenConversations(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const canTakeMessage = (conversation: IDataObject) =>
		conversation.status === CONVERSATION_STATUS_OPEN && conversation.channel !== TRANSCRIPT_CHANNEL;
	return await searchConversationPage.call(
		this,
		{ status: CONVERSATION_STATUS_OPEN },
		canTakeMessage,
		filter,
		paginationToken,
	);
}
