// One poll of Assigned Lead Not Contacted: read every lead in `assigned` (⌈A/100⌉ requests), note
// the waits, then check the leads whose wait has ended: GET /conversations?lead_id=… and
// GET /conversations/{id} for the conversations with messages after the notice grace. The rules
// are notContacted.ts's. Nothing is written here: the node stores the position once the poll
// ends, and a poll that throws stores nothing (its announcements are not started either).

import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PAGE_SIZE_MAX } from '../shared/constants';
import { isRecord } from '../shared/isRecord';
import type { ApiContext } from '../shared/transport';
import { apiRequest } from '../shared/transport';
import { delays } from '../shared/transport/delays';
import { pageQuery, readListPage } from '../shared/transport/pagination';
import { FALLBACK_CLOCK_MARGIN_MS } from './changesPoll';
import {
	afterCheck,
	contactedIn,
	conversationsToOpen,
	dueLeads,
	noteAssigned,
	notContactedItem,
} from './notContacted';
import type { NotContactedPosition } from './position';
import { uniqueById } from './position';
import type { WaitClock } from './waitClock';

/** A request is not started unless this many times the slowest one so far still fits. */
const REQUEST_TIME_SAFETY = 2;

export interface NotContactedRound {
	stored: NotContactedPosition | undefined;
	wait: WaitClock;
	/** Epoch ms (n8n's clock) by which the poll must be done. */
	deadline: number;
	budgetMs: number;
	polledAt: string;
}

export interface NotContactedOutcome {
	items: IDataObject[];
	position: NotContactedPosition;
}

/** Times requests and says whether one more fits before the deadline. */
class RequestTimer {
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
async function readAssigned(
	context: IPollFunctions,
	round: NotContactedRound,
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

/** Whether the lead's conversations hold a `human` message after the notice grace. */
async function wasContacted(
	context: IPollFunctions,
	leadId: string,
	startMs: number,
	timer: RequestTimer,
): Promise<boolean> {
	const conversations: IDataObject[] = [];
	let cursor: string | undefined;
	for (;;) {
		const { page } = await timer.time(
			async () =>
				await getList(
					context,
					'/conversations',
					{ lead_id: leadId },
					cursor,
					`the conversations of lead ${leadId}`,
				),
		);
		for (const conversation of page.records) conversations.push(conversation);
		if (!page.hasMore) break;
		cursor = page.nextCursor;
	}
	for (const id of conversationsToOpen(conversations, startMs)) {
		const { body } = await timer.time(
			async () =>
				await apiRequest.call(context as unknown as ApiContext, 'GET', `/conversations/${id}`, {
					about: `conversation ${id} of lead ${leadId}`,
				}),
		);
		if (isRecord(body) && contactedIn(body as IDataObject, startMs)) return true;
	}
	return false;
}

/**
 * Notes the waits and checks the ended ones, oldest first, while the budget allows (two requests
 * each, usually); those left are checked by the next poll. The first poll only notes.
 */
export async function pollNotContacted(
	context: IPollFunctions,
	round: NotContactedRound,
): Promise<NotContactedOutcome> {
	const timer = new RequestTimer(round.deadline);
	const { leads, nowMs } = await readAssigned(context, round, timer);
	const position = noteAssigned(round.stored, leads, round.wait);
	const items: IDataObject[] = [];
	if (!round.stored) return { items, position };

	const byId = new Map(leads.map((lead) => [lead.id as string, lead]));
	for (const id of dueLeads(position, nowMs, round.wait)) {
		if (!timer.fits(2)) break;
		const entry = position.waits[id];
		const contacted = await wasContacted(context, id, entry[1], timer);
		position.waits[id] = afterCheck(entry, contacted);
		if (!contacted)
			items.push(notContactedItem(byId.get(id)!, position.waits[id], round.polledAt, round.wait));
	}
	return { items, position };
}
