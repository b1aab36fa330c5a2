// What New or Updated Lead costs, and what it leaves to the rest of the key: every pass reads
// every lead, 100 per request, so a pass over N leads costs N/100 requests, rounded up.

import { PAGE_SIZE_MAX, RATE_LIMIT_PER_MINUTE } from '../shared/constants';

/** The service's rate limit per API key (spec: Limits). */
export const KEY_REQUESTS_PER_MINUTE = RATE_LIMIT_PER_MINUTE;

/**
 * Requests of the current window a poll leaves to everything else on the key. Below this
 * (`X-RateLimit-Remaining`), a poll stops between pages and the next one continues the pass: even
 * polled every minute, a large account cannot use the key up.
 */
export const KEY_RESERVE = KEY_REQUESTS_PER_MINUTE / 2;

export function requestsPerPoll(leads: number): number {
	return Math.max(1, Math.ceil(leads / PAGE_SIZE_MAX));
}

/** Share of the key's requests per minute that polling every `minutes` takes, in percent. */
export function shareOfLimit(leads: number, minutes: number): number {
	return (100 * requestsPerPoll(leads)) / (minutes * KEY_REQUESTS_PER_MINUTE);
}

/** Whether a poll that has read a page may read another, given what the key has left. */
export function leavesReserve(remaining: number | undefined): boolean {
	return remaining === undefined || remaining >= KEY_RESERVE;
}
