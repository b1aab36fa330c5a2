// "From List" of the resource locators. The service has no text search: each call reads a page
// of up to 100 records (from the cursor n8n hands back as paginationToken) and keeps the records
// whose name, phone, email or ID contain what the user typed; with a search text it reads a few
// more pages when the first ones hold too few matches.

import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { PAGE_SIZE_MAX } from '../../shared/constants';
import { apiRequest } from '../../shared/transport';
import { readListPage } from '../../shared/transport/pagination';

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
	toItem: (record: IDataObject) => INodeListSearchItems | undefined,
): Promise<INodeListSearchResult> {
	const results: INodeListSearchItems[] = [];
	let cursor = paginationToken;
	for (let pages = 0; pages < (filter ? MAX_PAGES_PER_SEARCH : 1); pages++) {
		const qs: IDataObject = cursor
			? { cursor, limit: PAGE_SIZE_MAX }
			: { ...query, limit: PAGE_SIZE_MAX };
		const { body } = await apiRequest.call(this, 'GET', path, { qs });
		const page = readListPage<IDataObject>(body);
		if (!page) return { results };
		for (const record of page.records) {
			const item = toItem(record);
			if (item) results.push(item);
		}
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
	return await searchPage.call(this, '/leads', {}, filter, paginationToken, (lead) =>
		matches(filter, lead.name, lead.phone, lead.email, lead.id)
			? { name: `${String(lead.name)} (${String(lead.phone)})`, value: String(lead.id) }
			: undefined,
	);
}

export async function searchAgents(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage.call(this, '/agents', {}, filter, paginationToken, (agent) =>
		matches(filter, agent.name, agent.id)
			? { name: `${String(agent.name)} (${String(agent.status)})`, value: String(agent.id) }
			: undefined,
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

export async function searchConversations(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const leadId = chosenLeadId.call(this);
	const query: IDataObject = leadId ? { lead_id: leadId } : {};
	return await searchPage.call(
		this,
		'/conversations',
		query,
		filter,
		paginationToken,
		(conversation) =>
			matches(
				filter,
				conversation.id,
				conversation.lead_id,
				conversation.channel,
				conversation.status,
			)
				? {
						name: `${displayChannel(conversation.channel)} · ${String(conversation.status)} · ${String(conversation.lead_id)} · last message ${String(conversation.last_message_at ?? '').slice(0, 10)}`,
						value: String(conversation.id),
					}
				: undefined,
	);
}

function displayChannel(channel: unknown): string {
	return String(channel ?? '')
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
}
