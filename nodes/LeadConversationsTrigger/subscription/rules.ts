import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isRecord } from '../../shared/isRecord';

export function sameEvents(a: string[] | undefined, b: string[]): boolean {
	if (!a || a.length !== b.length) return false;
	const expected = new Set(b);
	return a.every((event) => expected.has(event));
}

/**
 * The service delivers only to https:// addresses (spec: Events, Subscription rule 2), so an
 * http:// URL would be refused by the service with a less helpful message, or worse, accepted
 * by a lenient one and never delivered to.
 */
export function assertHttpsWebhookUrl(node: INode, url: string | undefined): string {
	if (url?.startsWith('https://')) return url;
	// n8n shows only the message in the toast of Execute step and of activation: the fix and the
	// alternative must be in it, not only in the description.
	throw new NodeOperationError(
		node,
		`The service only delivers events to https:// addresses, but this n8n gives the trigger "${url ?? ''}". ` +
			"Set N8N_WEBHOOK_URL (WEBHOOK_URL before n8n 2.x) to n8n's public https:// address and restart n8n, " +
			'or put a tunnel in front of n8n while testing; behind a proxy that ends TLS, also set N8N_PROXY_HOPS=1. ' +
			'Without a public https:// address, use the Lead Conversations Polling Trigger instead.',
		{
			description:
				"Set the WEBHOOK_URL environment variable (N8N_WEBHOOK_URL from n8n 2.x on) to n8n's public https:// address and restart n8n. " +
				'While testing on a local machine, put a tunnel in front of n8n and use its https:// address there. ' +
				'Behind a reverse proxy that ends TLS, also set N8N_PROXY_HOPS=1 so n8n builds https:// URLs. ' +
				'The Lead Conversations Polling Trigger needs no public address: it asks the service on a schedule.',
		},
	);
}

/** The creation response names the secret `secret`; other spellings are accepted too. */
export function readSigningSecret(created: IDataObject): string | undefined {
	for (const field of ['secret', 'signing_secret', 'signingSecret']) {
		const value = created[field];
		if (typeof value === 'string' && value !== '') return value;
	}
	return undefined;
}

/** A subscription as a listing shows it: the fields that tell whose it is. */
export interface ListedSubscription {
	id: string;
	url: string;
}

/**
 * One page of a subscription listing, which the specification does not show: a bare array or
 * `{ data: [...] }`, with `next_cursor` (in `pagination` or at the top) while `has_more` is
 * true. Records without a string `id` and `url` are skipped. `undefined` when it is no list.
 */
export function readSubscriptionPage(
	body: unknown,
): { subscriptions: ListedSubscription[]; nextCursor?: string } | undefined {
	let records: unknown[];
	if (Array.isArray(body)) records = body;
	else if (isRecord(body) && Array.isArray(body.data)) records = body.data;
	else return undefined;

	const subscriptions = records
		.filter(isRecord)
		.filter(
			(record): record is Record<string, unknown> & ListedSubscription =>
				typeof record.id === 'string' && record.id !== '' && typeof record.url === 'string',
		)
		.map(({ id, url }) => ({ id, url }));

	const paging = isRecord(body) ? (isRecord(body.pagination) ? body.pagination : body) : {};
	const nextCursor =
		paging.has_more === true && typeof paging.next_cursor === 'string' && paging.next_cursor !== ''
			? paging.next_cursor
			: undefined;
	return nextCursor === undefined ? { subscriptions } : { subscriptions, nextCursor };
}
