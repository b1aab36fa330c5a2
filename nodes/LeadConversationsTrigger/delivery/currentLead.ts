import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { type EventPayload, leadIdOf } from '../../shared/events/payload';
import { flattenLead } from '../../shared/flatLead';
import { isRecord } from '../../shared/isRecord';
import { apiRequest } from '../../shared/transport';
import { delays } from '../../shared/transport/delays';

/**
 * The service waits 10 s for its answer, and n8n answers only after the run is created, which
 * is after this read: past this budget the run starts without the lead rather than risk the
 * delivery counting as failed.
 */
export const FETCH_BUDGET_MS = 5_000;

function missing(message: string, httpCode: string | null = null): IDataObject {
	return { current_lead: null, current_lead_error: { http_code: httpCode, message } };
}

/**
 * Reads the lead as it is now. A failure or a slow answer does not lose the event: the run
 * starts with the event and the reason the lead is missing.
 */
export async function currentLeadFields(
	context: IWebhookFunctions,
	payload: EventPayload,
	budgetMs = FETCH_BUDGET_MS,
): Promise<IDataObject> {
	const leadId = leadIdOf(payload);
	if (leadId === undefined) return {};
	let settled = false;
	const read = apiRequest
		.call(context, 'GET', `/leads/${encodeURIComponent(leadId)}`)
		.then((response): IDataObject => ({ current_lead: response.body as IDataObject }))
		.catch((error: unknown): IDataObject => {
			const { httpCode, message } = error as { httpCode?: string | null; message?: string };
			context.logger.warn(
				`Lead Conversations Trigger: could not fetch the current lead ${leadId}: ${message ?? 'unknown error'}`,
			);
			return missing(message ?? 'unknown error', httpCode ?? null);
		})
		.finally(() => {
			settled = true;
		});
	const late = delays.sleep(budgetMs).then(() => {
		if (settled) return {};
		context.logger.warn(
			`Lead Conversations Trigger: the current lead ${leadId} took longer than ${budgetMs / 1000} s to read; the run starts without it`,
		);
		return missing(`the service did not answer within ${budgetMs / 1000} s`);
	});
	return await Promise.race([read, late]);
}

/**
 * Output: Current Lead, Flat. The row a spreadsheet upsert needs; when the lead could not be read,
 * only its ID and the reason, so that no column is overwritten with a guess.
 */
export function currentLeadRow(payload: EventPayload, fetched: IDataObject): IDataObject {
	const lead = fetched.current_lead;
	if (isRecord(lead)) return flattenLead(lead as IDataObject);
	return {
		id: leadIdOf(payload) ?? null,
		current_lead_error: fetched.current_lead_error ?? {
			http_code: null,
			message: 'the event names no lead',
		},
	};
}
