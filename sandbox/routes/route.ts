import type { SandboxCore } from '../core';
import type { OrganizationData } from '../store';

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
