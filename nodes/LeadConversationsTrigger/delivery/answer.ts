import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { REFUSALS, type Refusal } from '../../shared/events/verify';

/** The body of every 200: it says nothing about what the trigger did with the event. */
export const ACCEPTED = { received: true };

/**
 * How the trigger ends every delivery. A refusal is answered at once with its own status and
 * starts nothing. Everything else is answered 200 by n8n itself: at once when no run starts,
 * and for a run only once n8n has created its execution (n8n 2.x defers an `onReceived`
 * answer until then; in queue mode, until the job is enqueued). An event is then never
 * counted as delivered by the service while n8n holds it only in memory.
 */
export const answer = {
	refused(context: IWebhookFunctions, refusal: Refusal): IWebhookResponseData {
		const { status, body } = REFUSALS[refusal];
		context.getResponseObject().status(status).send(body);
		return { noWebhookResponse: true };
	},
	skipped(): IWebhookResponseData {
		return { webhookResponse: ACCEPTED };
	},
	started(context: IWebhookFunctions, json: IDataObject): IWebhookResponseData {
		return { workflowData: [context.helpers.returnJsonArray(json)], webhookResponse: ACCEPTED };
	},
};
