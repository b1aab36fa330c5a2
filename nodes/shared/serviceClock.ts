// The service's clock as its answers give it: the HTTP Date header (whole seconds).

import type { IDataObject } from 'n8n-workflow';

/** Epoch ms of an answer's Date header; undefined when the answer has none that parses. */
export function dateHeaderMs(headers: IDataObject | undefined): number | undefined {
	const date = headers?.date;
	const ms = typeof date === 'string' ? Date.parse(date) : Number.NaN;
	return Number.isNaN(ms) ? undefined : ms;
}
