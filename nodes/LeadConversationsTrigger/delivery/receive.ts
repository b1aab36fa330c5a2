import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { SIGNATURE_HEADER } from '../../shared/constants';
import { unmetLeadCondition } from '../../shared/events/conditions';
import { deliveryKey, deliveryKeyDigest } from '../../shared/events/dedup';
import { deliveryLedger } from '../../shared/events/dedupMemory';
import { dataOf, outputJson } from '../../shared/events/payload';
import { dedupHorizonMs } from '../../shared/events/replayWindow';
import { verifyDelivery } from '../../shared/events/verify';
import { CURRENT_LEAD_FLAT, readSettings, userSigningSecret } from '../settings';
import { deliveryScopeOf, storedSubscription } from '../subscription/lifecycle';
import { isSubscribed } from '../../shared/events/eventNames';
import { forgetUnlessAccepted } from './acceptance';
import { answer } from './answer';
import { currentLeadFields, currentLeadRow } from './currentLead';

/**
 * One delivery: verify the signature on the raw bytes, the body and the replay window (refused
 * with 401, 400 or 403 and no run); skip events not subscribed to, duplicates and leads not
 * meeting the conditions (200, no run); otherwise start one run with one item.
 */
export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = context.getRequestObject();
	if (!request.rawBody) await request.readRawBody();

	const settings = readSettings(context);
	const { stored } = storedSubscription(context);
	const now = Date.now();
	const verification = verifyDelivery(
		{ rawBody: request.rawBody, signature: request.headers[SIGNATURE_HEADER] },
		(await userSigningSecret(context)) ?? stored.signingSecret,
		settings.replayWindow,
		now,
	);
	if (!verification.accepted) {
		if (verification.refusal === 'outsideWindow') {
			context.logger.warn(`Lead Conversations Trigger: refused, ${verification.detail}`);
		}
		return answer.refused(context, verification.refusal);
	}

	const { payload } = verification;
	if (!isSubscribed(settings.events, payload.event)) return answer.skipped();

	// Process memory, not static data: n8n does not save static data written by a call that
	// starts a run (what this guarantees is written in dedupMemory.ts).
	const ledger = deliveryLedger(
		deliveryScopeOf(context, stored),
		dedupHorizonMs(settings.replayWindow),
	);
	const key = deliveryKey(payload);
	if (ledger.isDuplicate(key, now)) return answer.skipped();
	forgetUnlessAccepted(context, () => ledger.forget(key));

	const unmet = unmetLeadCondition(payload.event, dataOf(payload), settings.conditions);
	if (unmet !== undefined) {
		context.logger.debug(`Lead Conversations Trigger: ${payload.event} skipped, ${unmet}`);
		return answer.skipped();
	}

	const lead = settings.fetchCurrentLead ? await currentLeadFields(context, payload) : {};
	if (settings.output === CURRENT_LEAD_FLAT) {
		return answer.started(context, currentLeadRow(payload, lead));
	}
	const extra = { ...lead, delivery_key: deliveryKeyDigest(payload) };
	return answer.started(context, outputJson(payload, settings.output, extra));
}
