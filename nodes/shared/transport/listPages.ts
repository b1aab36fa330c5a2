// Reading a list page by page: `iterateListPages` follows the cursor, `collectListPages` keeps
// every record it yields. The planning of each page is pagination.ts's.

import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiContext } from './connection';
import type { ListPlan } from './pagination';
import { nextPageSize, pageQuery, readListPage, recordsToKeep, stopAfterPage } from './pagination';
import { apiRequest } from './request';

function withPageContext(
	node: INode,
	error: unknown,
	where: { path: string; page: number; recordsRead: number; itemIndex?: number },
): NodeApiError | NodeOperationError {
	const context = `stopped at page ${where.page} of ${where.path} after ${where.recordsRead} records were read; none are returned`;
	if (error instanceof NodeApiError) {
		return new NodeApiError(node, { message: error.message } as JsonObject, {
			message: `${error.message} (${context})`,
			description: error.description ?? undefined,
			httpCode: error.httpCode ?? undefined,
			itemIndex: where.itemIndex,
		});
	}
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(node, `${message} (${context})`, {
		description: error instanceof NodeOperationError ? (error.description ?? undefined) : undefined,
		itemIndex: where.itemIndex,
	});
}

export interface ListReadOptions {
	returnAll: boolean;
	limit?: number;
	itemIndex?: number;
}

/**
 * Reads a list page by page. With `returnAll` it follows `next_cursor` until `has_more` is false;
 * with a `limit` it stops as soon as that many records were read and never asks for more than
 * it keeps. A failing page fails the whole list (naming the page and the records read so far):
 * a partial list is never presented as complete.
 */
export async function* iterateListPages<T>(
	this: ApiContext,
	path: string,
	query: IDataObject,
	options: ListReadOptions,
): AsyncGenerator<T[]> {
	const plan: ListPlan = { returnAll: options.returnAll, limit: options.limit };
	const { itemIndex } = options;
	let cursor: string | undefined;
	let recordsRead = 0;

	for (let pageNumber = 1; ; pageNumber++) {
		const size = nextPageSize(plan, recordsRead);
		if (size === 0) return;

		let body: unknown;
		try {
			({ body } = await apiRequest.call(this, 'GET', path, {
				qs: pageQuery(query, cursor, size),
				itemIndex,
			}));
		} catch (error) {
			throw withPageContext(this.getNode(), error, {
				path,
				page: pageNumber,
				recordsRead,
				itemIndex,
			});
		}

		const page = readListPage<T>(body);
		if (!page) {
			throw new NodeApiError(this.getNode(), { message: 'Not a list response' } as JsonObject, {
				message: `The service answered GET ${path} without a "data" list (page ${pageNumber}, ${recordsRead} records read before it; none are returned)`,
				itemIndex,
			});
		}

		const keep = recordsToKeep(plan, recordsRead, page.records.length);
		const records = keep < page.records.length ? page.records.slice(0, keep) : page.records;
		recordsRead += records.length;
		if (records.length > 0) yield records;

		if (stopAfterPage(plan, recordsRead, page)) return;
		if (page.nextCursor === cursor) {
			throw new NodeApiError(this.getNode(), { message: 'Cursor did not advance' } as JsonObject, {
				message: `The service returned the same cursor twice for GET ${path} (page ${pageNumber}, ${recordsRead} records read; none are returned)`,
				itemIndex,
			});
		}
		cursor = page.nextCursor;
	}
}

/**
 * Every record of a list, for an operation that outputs them as they come: the array filled here,
 * page by page, is the output itself, so no page is copied again.
 */
export async function collectListPages(
	this: ApiContext,
	path: string,
	query: IDataObject,
	options: ListReadOptions,
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	const pages = iterateListPages<IDataObject>;
	for await (const page of pages.call(this, path, query, options)) {
		for (const record of page) records.push(record);
	}
	return records;
}
