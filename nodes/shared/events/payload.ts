import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../isRecord';
import { isLeadEvent } from './conditions';

/** The common payload of every event (spec: Events, Payload). */
export interface EventPayload extends IDataObject {
	event: string;
}

/**
 * Parses the verified body bytes themselves: a JSON object with a string `event`, or
 * `undefined` when the body is not one (without the event name a delivery cannot be routed).
 */
export function parseEventPayload(rawBody: Buffer): EventPayload | undefined {
	let parsed: unknown;
	try {
		parsed = JSON.parse(rawBody.toString('utf8'));
	} catch {
		return undefined;
	}
	if (!isRecord(parsed)) return undefined;
	const { event } = parsed;
	if (typeof event !== 'string' || event === '') return undefined;
	return parsed as EventPayload;
}

/** The event-specific `data` object; an empty one when the payload carries none. */
export function dataOf(payload: EventPayload): IDataObject {
	const { data } = payload;
	return isRecord(data) ? (data as IDataObject) : {};
}

/**
 * The lead an event is about: lead events carry the lead itself in `data`; appointment and
 * conversation events name it in `data.lead_id` (`docs/service-contract.md` §8).
 */
export function leadIdOf(payload: EventPayload): string | undefined {
	const data = dataOf(payload);
	const leadId = isLeadEvent(payload.event) ? data.id : data.lead_id;
	return typeof leadId === 'string' && leadId !== '' ? leadId : undefined;
}

export type OutputShape = 'payload' | 'data';

export function outputJson(
	payload: EventPayload,
	shape: OutputShape,
	extra: IDataObject = {},
): IDataObject {
	const base = shape === 'data' ? dataOf(payload) : payload;
	return { ...base, ...extra };
}
