import type { SandboxCore } from '../core';
import type { OrganizationData, Store } from '../store';

export interface RouteContext {
	core: SandboxCore;
	/** The caller's organization (from the API key). */
	org: OrganizationData;
	/** Decoded path parameters, in order. */
	params: string[];
	query: URLSearchParams;
	/** Parsed JSON body of POST/PATCH requests. */
	body: unknown;
}

export interface RouteResult {
	status: number;
	/** Omitted for 204. */
	body?: unknown;
}

export interface Route {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	/** Matched against the path after /v1; capture groups become params. */
	pattern: RegExp;
	handle(context: RouteContext): RouteResult;
}

/** A route for `path` below /v1; `{id}` stands for one path segment, handed on in `params`. */
export function route(method: Route['method'], path: string, handle: Route['handle']): Route {
	return { method, pattern: new RegExp(`^${path.replace(/\{id\}/g, '([^/]+)')}$`), handle };
}

/** 200 with `body`. */
export function ok(body: unknown): RouteResult {
	return { status: 200, body };
}

/** The record the path's `{id}` names, as the caller's organization sees it; else `missing`. */
export function pathRecord<T>(
	context: RouteContext,
	lookup: (store: Store, orgId: string, id: string) => T | undefined,
	missing: (id: string) => Error,
): T {
	const id = context.params[0];
	const record = lookup(context.core.store, context.org.id, id);
	if (record === undefined) throw missing(id);
	return record;
}
