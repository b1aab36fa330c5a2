// One poll of the New or Updated Lead event: read pages of GET /leads until the pass ends or the
// poll's time budget would run out, announce the changed leads, and say where the position goes.
// The rules live in changes.ts; the method and its limits in docs/spreadsheet-sync.md.

import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PAGE_SIZE_MAX, RATE_LIMIT_REMAINING_HEADER } from '../shared/constants';
import type { ApiContext } from '../shared/transport';
import { apiRequest } from '../shared/transport';
import { delays } from '../shared/transport/delays';
import { pageQuery, readListPage } from '../shared/transport/pagination';
import { header, parseRemaining } from '../shared/transport/rateLimit';
import type { ChangesPosition } from './changes';
import { BEGINNING, announce, closePass, noteBaseline } from './changes';
import { KEY_RESERVE, leavesReserve } from './pollCost';

/**
 * The HTTP Date header counts whole seconds and is written after the page was read: taking off a
 * second and a margin keeps the start before the read even when reading crossed a second.
 */
const DATE_RESOLUTION_MS = 1_000;
const DATE_MARGIN_MS = 1_000;
/**
 * Without a Date header the pass's start is taken from n8n's clock, this much earlier, so that a
 * service clock up to this far behind n8n's loses nothing (docs/spreadsheet-sync.md).
 */
export const FALLBACK_CLOCK_MARGIN_MS = 60_000;
/** A page is not requested unless this many times the slowest page so far still fits. */
const PAGE_TIME_SAFETY = 2;

export interface ChangesOutcome {
	leads: IDataObject[];
	position: ChangesPosition;
}

interface PassPage {
	records: IDataObject[];
	nextCursor?: string;
	/** The service's time at the request, from its Date header; n8n's clock as a fallback. */
	serviceTime: string;
	/** `X-RateLimit-Remaining` of the answer: what the key has left in this window. */
	remaining?: number;
}

/** When the service read a page: its Date header, less its resolution and a margin. */
export function serviceTimeOf(headers: IDataObject, sentAt: number): string {
	const header = headers.date;
	const dated = typeof header === 'string' ? Date.parse(header) : Number.NaN;
	if (Number.isNaN(dated)) return new Date(sentAt - FALLBACK_CLOCK_MARGIN_MS).toISOString();
	return new Date(dated - DATE_RESOLUTION_MS - DATE_MARGIN_MS).toISOString();
}

async function readPage(context: IPollFunctions, cursor: string | undefined): Promise<PassPage> {
	const sentAt = delays.now();
	const { body, headers } = await apiRequest.call(
		context as unknown as ApiContext,
		'GET',
		'/leads',
		{
			qs: pageQuery({}, cursor, PAGE_SIZE_MAX),
			about: cursor === undefined ? 'the first page of leads' : 'the next page of leads',
		},
	);
	const page = readListPage<IDataObject>(body);
	if (!page) {
		throw new NodeOperationError(
			context.getNode(),
			'The service answered GET /leads without a "data" list; nothing was announced',
		);
	}
	return {
		records: page.records,
		nextCursor: page.hasMore ? page.nextCursor : undefined,
		serviceTime: serviceTimeOf(headers, sentAt),
		remaining: parseRemaining(header(headers, RATE_LIMIT_REMAINING_HEADER)),
	};
}

/**
 * The page; 'refused' when the service answered 400 to a stored cursor (an expired one, say);
 * or the transport's error (already a NodeApiError naming the status and the service's message).
 */
async function readPageUnlessRefused(
	context: IPollFunctions,
	cursor: string | undefined,
): Promise<PassPage | 'refused' | { failed: unknown }> {
	try {
		return await readPage(context, cursor);
	} catch (error) {
		const refused = String((error as { httpCode?: unknown }).httpCode) === '400';
		return cursor !== undefined && refused ? 'refused' : { failed: error };
	}
}

export interface ChangesPollOptions {
	/** The stored position; undefined on the activation poll. */
	stored: ChangesPosition | undefined;
	/** Include Existing Leads: the first pass announces every lead. */
	includeExisting: boolean;
	/** Epoch ms by which the poll must be done. */
	deadline: number;
}

/**
 * Reads on from where the stored position left off. A failing page throws (n8n then stores
 * nothing and the next poll reads the same pages again); a refused cursor (400) restarts the
 * pass once, and the pairs already kept stop a lead from being announced twice.
 */
export async function pollChangedLeads(
	context: IPollFunctions,
	options: ChangesPollOptions,
): Promise<ChangesOutcome> {
	const baseline = options.stored === undefined && !options.includeExisting;
	let position: ChangesPosition = options.stored ?? {
		mark: BEGINNING,
		announced: [],
		...(options.includeExisting ? { filling: true as const } : {}),
	};
	const leads: IDataObject[] = [];
	const announcedThisPoll = new Set<string>();
	let restarted = false;
	let slowestPageMs = 0;
	let pagesRead = 0;

	for (;;) {
		const cursor = position.pass?.cursor;
		const startedAt = delays.now();
		const page = await readPageUnlessRefused(context, cursor);
		if (page !== 'refused' && 'failed' in page) throw page.failed as NodeApiError;
		if (page === 'refused') {
			if (restarted) {
				throw new NodeOperationError(
					context.getNode(),
					'The service refused the cursor of GET /leads twice in one poll; nothing was announced',
				);
			}
			context.logger.warn(
				'Lead Conversations Polling Trigger: the service refused the stored cursor; the pass starts again from the first page',
			);
			restarted = true;
			position = { ...position, pass: undefined };
			continue;
		}
		pagesRead++;
		const start = position.pass?.start ?? page.serviceTime;
		if (cursor === undefined && baseline) position = { ...position, mark: start };
		// A fill keeps pairs from its own start on (changes.ts keptFrom): give it the start now.
		if (position.filling) position = { ...position, pass: { start, cursor: cursor ?? '' } };

		if (baseline) {
			position = noteBaseline(position, page.records);
		} else {
			const step = announce(position, page.records, announcedThisPoll);
			position = step.position;
			for (const lead of step.fresh) leads.push(lead);
		}

		if (page.nextCursor === undefined) {
			return { leads, position: closePass(position, start) };
		}
		if (page.nextCursor === cursor) {
			throw new NodeOperationError(
				context.getNode(),
				'The service returned the same cursor twice for GET /leads; nothing was announced',
			);
		}
		position = { ...position, pass: { start, cursor: page.nextCursor } };
		if (!leavesReserve(page.remaining)) {
			context.logger.warn(
				`Lead Conversations Polling Trigger: New or Updated Lead read ${pagesRead} pages and stopped with ${page.remaining} requests left on the key this minute, to leave ${KEY_RESERVE} to other work; the next poll continues. Poll less often to read the whole account in one poll.`,
			);
			return { leads, position };
		}
		const now = delays.now();
		slowestPageMs = Math.max(slowestPageMs, now - startedAt);
		if (now + PAGE_TIME_SAFETY * slowestPageMs > options.deadline) return { leads, position };
	}
}
