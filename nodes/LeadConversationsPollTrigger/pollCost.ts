// What New or Updated Lead costs: every poll reads every lead, 100 per request, so N leads cost
// ⌈N/100⌉ requests per poll. The table below is shown in the node and in the README.

import { PAGE_SIZE_MAX } from '../shared/constants';

/** The service's rate limit per API key (spec: Limits). */
export const KEY_REQUESTS_PER_MINUTE = 1_000;

export const COST_TABLE_LEADS = [1_000, 5_000, 20_000, 100_000] as const;
export const COST_TABLE_MINUTES = [1, 5, 15, 60] as const;

export function requestsPerPoll(leads: number): number {
	return Math.max(1, Math.ceil(leads / PAGE_SIZE_MAX));
}

/** Share of the key's requests per minute that polling every `minutes` takes, in percent. */
export function shareOfLimit(leads: number, minutes: number): number {
	return (100 * requestsPerPoll(leads)) / (minutes * KEY_REQUESTS_PER_MINUTE);
}

/** "20%", "1.3%", "0.07%": two significant digits at most. */
export function percentText(percent: number): string {
	if (percent >= 10) return `${Math.round(percent)}%`;
	return `${Number(percent.toPrecision(percent >= 1 ? 2 : 1))}%`;
}

function every(minutes: number): string {
	return minutes === 60 ? 'hour' : `${minutes} min`;
}

/** One line per account size: "20,000 leads (200 requests): every 1 min 20%, every 5 min 4%…". */
export function costLines(): string[] {
	return COST_TABLE_LEADS.map((leads) => {
		const shares = COST_TABLE_MINUTES.map(
			(minutes) => `every ${every(minutes)} ${percentText(shareOfLimit(leads, minutes))}`,
		);
		return `${leads.toLocaleString('en-US')} leads (${requestsPerPoll(leads)} requests): ${shares.join(', ')}`;
	});
}
