// The requests both assigned-lead events make: every lead in `assigned` (⌈A/100⌉ requests), and
// one lead's first contact (its conversation list, then the conversations with messages in the
// window). Each request is timed, and none is started that might not end before the poll's
// deadline. What counts as contact is contactRule.ts's.

import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PAGE_SIZE_MAX } from '../shared/constants';
import { isRecord } from '../shared/isRecord';
import type { ApiContext } from '../shared/transport';
import { apiRequest } from '../shared/transport';
import { delays } from '../shared/transport/delays';
import { pageQuery, readListPage } from '../shared/transport/pagination';
import { FALLBACK_CLOCK_MARGIN_MS } from './changesPoll';
import type { ContactRule } from './contactRule';
import { conversationsToOpen, firstContact } from './contactRule';
import { uniqueById } from './position';

const timeOf = (value: unknown): number =>
	typeof value === 'string' ? Date.parse(value) : Number.NaN;

/** A request is not started unless this many times the slowest one so far still fits. */
const REQUEST_TIME_SAFETY = 2;

/** Times requests and says whether one more fits before the deadline. */
export class RequestTimer {
	private slowestMs = 0;

	constructor(private readonly deadline: number) {}

	async time<T>(request: () => Promise<T>): Promise<T> {
		const startedAt = delays.now();
		const result = await request();
		this.slowestMs = Math.max(this.slowestMs, delays.now() - startedAt);
		return result;
	}

	fits(requests = 1): boolean {
		return delays.now() + REQUEST_TIME_SAFETY * requests * this.slowestMs <= this.deadline;
	}
}

/** The service's time from an answer's Date header; without one, n8n's clock less a margin. */
export function serviceNowOf(headers: IDataObject, fallbackMs: number): number {
	const dated = typeof headers.date === 'string' ? Date.parse(headers.date) : Number.NaN;
	return Number.isNaN(dated) ? fallbackMs - FALLBACK_CLOCK_MARGIN_MS : dated;
}

async function getList(
	context: IPollFunctions,
	path: string,
	query: IDataObject,
	cursor: string | undefined,
	about: string,
) {
	const { body, headers } = await apiRequest.call(context as unknown as ApiContext, 'GET', path, {
		qs: pageQuery(query, cursor, PAGE_SIZE_MAX),
		about,
	});
	const page = readListPage<IDataObject>(body);
	if (!page) {
		throw new NodeOperationError(
			context.getNode(),
			`The service answered GET ${path} without a "data" list; nothing was announced`,
		);
	}
	if (page.hasMore && page.nextCursor === cursor) {
		throw new NodeOperationError(
			context.getNode(),
			`The service returned the same cursor twice for GET ${path}; nothing was announced`,
		);
	}
	return { page, headers };
}

/**
 * Every lead in `assigned` and the service's time at the first page (the earliest: a wait is
 * never taken as ended before it has). Throws when the read does not fit the poll's budget.
 */
export async function readAssigned(
	context: IPollFunctions,
	round: { budgetMs: number },
	timer: RequestTimer,
) {
	const leads: IDataObject[] = [];
	let nowMs: number | undefined;
	let cursor: string | undefined;
	for (;;) {
		const sentAt = delays.now();
		const { page, headers } = await timer.time(
			async () =>
				await getList(context, '/leads', { status: 'assigned' }, cursor, 'the assigned leads'),
		);
		nowMs ??= serviceNowOf(headers, sentAt);
		for (const lead of page.records) leads.push(lead);
		if (!page.hasMore) return { leads: uniqueById(leads), nowMs };
		if (!timer.fits()) {
			throw new NodeOperationError(
				context.getNode(),
				`Reading every assigned lead did not fit in the ${Math.round(round.budgetMs / 1000)} s a poll may take`,
				{
					description:
						'Nothing was started and no wait was noted. Use fewer Poll Times or move handled leads out of assigned.',
				},
			);
		}
		cursor = page.nextCursor;
	}
}

export interface Contact {
	message: IDataObject;
	conversation: IDataObject;
}

/**
 * The lead's first contact after `startMs`, reading only the conversations with a message after
 * `afterMs`. `earliest`: open every such conversation for the earliest contact (the response
 * time); else stop at the first conversation that holds one.
 */
export async function findContact(
	context: IPollFunctions,
	timer: RequestTimer,
	lead: { id: string; startMs: number; afterMs: number },
	rule: ContactRule,
	earliest = false,
): Promise<Contact | undefined> {
	const conversations: IDataObject[] = [];
	let cursor: string | undefined;
	for (;;) {
		const { page } = await timer.time(
			async () =>
				await getList(
					context,
					'/conversations',
					{ lead_id: lead.id },
					cursor,
					`the conversations of lead ${lead.id}`,
				),
		);
		for (const conversation of page.records) conversations.push(conversation);
		if (!page.hasMore) break;
		cursor = page.nextCursor;
	}
	let found: Contact | undefined;
	for (const id of conversationsToOpen(conversations, lead.afterMs)) {
		const { body } = await timer.time(
			async () =>
				await apiRequest.call(context as unknown as ApiContext, 'GET', `/conversations/${id}`, {
					about: `conversation ${id} of lead ${lead.id}`,
				}),
		);
		if (!isRecord(body)) continue;
		const message = firstContact(body as IDataObject, lead.startMs, rule);
		if (message === undefined) continue;
		if (!earliest) return { message, conversation: body as IDataObject };
		if (!found || timeOf(message.created_at) < timeOf(found.message.created_at)) {
			found = { message, conversation: body as IDataObject };
		}
	}
	return found;
}
