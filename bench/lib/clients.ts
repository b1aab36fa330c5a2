// The clients compared, all reading `GET /leads` page by page with 100 records a page:
// - our node (Lead → Get Many, Return All) run through n8n's engine (the test harness);
// - n8n's own HTTP Request node 4.5 with its cursor pagination, through the same engine, the way
//   a user would configure it without this package (Header Auth credential, `limit=100`, the
//   cursor from `$response.body.pagination.next_cursor`, done when `has_more` is false);
//   optionally followed by n8n's Split Out node so that each lead becomes one item, as ours;
// - a bare `fetch` loop: the least any client must do.

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { HttpHeaderAuth } from 'n8n-nodes-base/dist/credentials/HttpHeaderAuth.credentials';
import { HttpRequest } from 'n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node';
import { SplitOut } from 'n8n-nodes-base/dist/nodes/Transform/SplitOut/SplitOut.node';

import {
	DEFAULT_ACTION_NODE_NAME,
	runActionNode,
	runWorkflow,
	type RunResult,
} from '../../harness/engine';

export interface Target {
	/** e.g. http://127.0.0.1:PORT/v1 */
	baseUrl: string;
	apiKey: string;
}

export const PAGE_SIZE = 100;

export type ClientName = 'bare' | 'node' | 'http' | 'httpSplit';

export const CLIENT_LABELS: Record<ClientName, string> = {
	bare: 'bare fetch loop',
	node: 'Lead Conversations node',
	http: 'HTTP Request node 4.5',
	httpSplit: 'HTTP Request 4.5 + Split Out',
};

/** What a client run produced, in a shape common to all clients. */
export interface ClientOutcome {
	/** 'success' or the engine's status; 'error' when a bare loop threw. */
	status: string;
	error?: string;
	/** Items the last node output (one per lead, or one per page for the HTTP Request node alone). */
	items: number;
	/** The leads received, whatever the item shape. */
	leads: IDataObject[];
	/** The engine's result, kept so memory measures can hold the output as n8n does. */
	run?: RunResult;
}

// ─── our node ─────────────────────────────────────────────────────────────────────────────────

export interface OurNodeOptions {
	returnAll?: boolean;
	limit?: number;
}

export async function runOurNode(
	target: Target,
	options: OurNodeOptions = {},
): Promise<ClientOutcome> {
	const returnAll = options.returnAll ?? true;
	const parameters: INodeParameters = { resource: 'lead', operation: 'getAll', returnAll };
	if (!returnAll) parameters.limit = options.limit;
	const run = await runActionNode(parameters, { apiKey: target.apiKey, baseUrl: target.baseUrl });
	const output = run.output(DEFAULT_ACTION_NODE_NAME);
	return {
		status: run.status,
		error: run.error?.message,
		items: output.length,
		leads: output.map((item) => item.json),
		run,
	};
}

// ─── n8n's HTTP Request node ─────────────────────────────────────────────────────────────────

export interface HttpRequestNodeOptions {
	/** Follow with a Split Out node on `data`: one item per lead. */
	splitOut?: boolean;
	/** Pagination "Interval Between Requests (ms)". */
	requestIntervalMs?: number;
	/** Node setting Retry On Fail with these tries and wait. */
	retry?: { maxTries: number; waitBetweenTriesMs: number };
	/** Pagination "Limit Pages Fetched" (used for warm-ups). */
	maxRequests?: number;
}

const HTTP_NODE = 'HTTP Request';
const SPLIT_NODE = 'Split Out';
const HEADER_AUTH = { id: 'bench-header-auth', name: 'Header Auth account' };

/** Parameters exactly as n8n's editor stores them for this configuration. */
export function httpRequestParameters(
	target: Target,
	options: HttpRequestNodeOptions,
): IDataObject {
	const pagination: IDataObject = {
		paginationMode: 'updateAParameterInEachRequest',
		parameters: {
			parameters: [
				{ type: 'qs', name: 'cursor', value: '={{ $response.body.pagination.next_cursor }}' },
			],
		},
		paginationCompleteWhen: 'other',
		completeExpression: '={{ !$response.body.pagination.has_more }}',
	};
	if (options.requestIntervalMs !== undefined)
		pagination.requestInterval = options.requestIntervalMs;
	if (options.maxRequests !== undefined) {
		pagination.limitPagesFetched = true;
		pagination.maxRequests = options.maxRequests;
	}
	return {
		url: `${target.baseUrl}/leads`,
		authentication: 'genericCredentialType',
		genericAuthType: 'httpHeaderAuth',
		sendQuery: true,
		queryParameters: { parameters: [{ name: 'limit', value: String(PAGE_SIZE) }] },
		options: { pagination: { pagination } },
	};
}

function leadsOfPages(items: INodeExecutionData[]): IDataObject[] {
	const leads: IDataObject[] = [];
	for (const item of items) {
		const data = item.json.data;
		if (Array.isArray(data)) for (const lead of data) leads.push(lead as IDataObject);
	}
	return leads;
}

export async function runHttpRequestNode(
	target: Target,
	options: HttpRequestNodeOptions = {},
): Promise<ClientOutcome> {
	const httpNode: IDataObject = {
		name: HTTP_NODE,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.5,
		position: [220, 0],
		credentials: { httpHeaderAuth: HEADER_AUTH },
		parameters: httpRequestParameters(target, options),
	};
	if (options.retry) {
		httpNode.retryOnFail = true;
		httpNode.maxTries = options.retry.maxTries;
		httpNode.waitBetweenTries = options.retry.waitBetweenTriesMs;
	}
	const nodes = [
		{
			name: 'Manual Trigger',
			type: 'n8n-nodes-base.manualTrigger',
			position: [0, 0],
			parameters: {},
		},
		httpNode,
	];
	const connections: IDataObject = {
		'Manual Trigger': { main: [[{ node: HTTP_NODE, type: 'main', index: 0 }]] },
	};
	if (options.splitOut) {
		nodes.push({
			name: SPLIT_NODE,
			type: 'n8n-nodes-base.splitOut',
			position: [440, 0],
			parameters: { fieldToSplitOut: 'data', include: 'noOtherFields' },
		});
		connections[HTTP_NODE] = { main: [[{ node: SPLIT_NODE, type: 'main', index: 0 }]] };
	}
	const run = await runWorkflow(
		{ nodes, connections } as never,
		{ apiKey: target.apiKey, baseUrl: target.baseUrl },
		{
			nodeTypes: {
				'n8n-nodes-base.httpRequest': new HttpRequest(),
				'n8n-nodes-base.splitOut': new SplitOut(),
			},
			credentialTypes: { httpHeaderAuth: new HttpHeaderAuth() },
			storedCredentials: { httpHeaderAuth: { name: 'X-API-Key', value: target.apiKey } },
		},
	);
	const pages = run.output(HTTP_NODE);
	if (options.splitOut) {
		const split = run.output(SPLIT_NODE);
		return {
			status: run.status,
			error: run.error?.message,
			items: split.length,
			leads: split.map((item) => item.json),
			run,
		};
	}
	return {
		status: run.status,
		error: run.error?.message,
		items: pages.length,
		leads: leadsOfPages(pages),
		run,
	};
}

// ─── bare fetch loop ─────────────────────────────────────────────────────────────────────────

/** The spec's loop with nothing else: fetch, parse, keep `data`, follow `next_cursor`. */
export async function bareFetchLoop(target: Target, maxPages = Infinity): Promise<ClientOutcome> {
	const leads: IDataObject[] = [];
	let cursor: string | undefined;
	try {
		for (let page = 0; page < maxPages; page++) {
			const query =
				cursor === undefined
					? `limit=${PAGE_SIZE}`
					: `limit=${PAGE_SIZE}&cursor=${encodeURIComponent(cursor)}`;
			const response = await fetch(`${target.baseUrl}/leads?${query}`, {
				headers: { 'X-API-Key': target.apiKey },
			});
			const body = (await response.json()) as {
				data?: IDataObject[];
				pagination?: { has_more?: boolean; next_cursor?: string | null };
			};
			if (!response.ok || !Array.isArray(body.data)) {
				throw new Error(`HTTP ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
			}
			for (const lead of body.data) leads.push(lead);
			if (!body.pagination?.has_more || !body.pagination.next_cursor) break;
			cursor = body.pagination.next_cursor;
		}
	} catch (error) {
		return { status: 'error', error: (error as Error).message, items: leads.length, leads };
	}
	return { status: 'success', items: leads.length, leads };
}

export async function runClient(name: ClientName, target: Target): Promise<ClientOutcome> {
	switch (name) {
		case 'bare':
			return await bareFetchLoop(target);
		case 'node':
			return await runOurNode(target);
		case 'http':
			return await runHttpRequestNode(target);
		case 'httpSplit':
			return await runHttpRequestNode(target, { splitOut: true });
	}
}

/** One short run of a client, so that lazy module loading and JIT are not measured. */
export async function warmUp(name: ClientName, target: Target): Promise<void> {
	if (name === 'bare') await bareFetchLoop(target, 2);
	else if (name === 'node') await runOurNode(target, { returnAll: false, limit: 2 * PAGE_SIZE });
	else await runHttpRequestNode(target, { splitOut: name === 'httpSplit', maxRequests: 2 });
}

/** Leads received, distinct IDs and duplicates. */
export function countLeads(leads: IDataObject[]): {
	received: number;
	distinct: number;
	duplicates: number;
} {
	const ids = new Set<string>();
	for (const lead of leads) ids.add(String(lead.id));
	return { received: leads.length, distinct: ids.size, duplicates: leads.length - ids.size };
}
