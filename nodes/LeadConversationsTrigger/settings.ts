import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { LeadConditions } from '../shared/events/conditions';
import type { OutputShape } from '../shared/events/payload';
import { type ReplayWindow, replayWindowOf } from '../shared/events/replayWindow';
import { signingSecretFromCredential } from '../shared/events/signingSecret';
import { subscribedEvents } from '../shared/events/eventNames';

export type NodeContext = IHookFunctions | IWebhookFunctions;

/** Output: the lead as it is now, as spreadsheet columns (nodes/shared/flatLead.ts). */
export const CURRENT_LEAD_FLAT = 'currentLeadFlat';

export interface TriggerSettings {
	events: string[];
	subscription: 'automatic' | 'manual';
	output: OutputShape | typeof CURRENT_LEAD_FLAT;
	conditions: LeadConditions;
	fetchCurrentLead: boolean;
	replayWindow: ReplayWindow;
}

export function readSettings(context: NodeContext): TriggerSettings {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const events = subscribedEvents(
		context.getNodeParameter('events', []) as string[],
		context.getNodeParameter('otherEvents', '') as string,
	);
	if (events.length === 0) {
		throw new NodeOperationError(
			context.getNode(),
			'Choose at least one event in Events, or type one in Other Event Names',
		);
	}
	return {
		events,
		subscription: context.getNodeParameter('subscription', 'automatic') as 'automatic' | 'manual',
		output: (options.output as TriggerSettings['output'] | undefined) ?? 'payload',
		conditions: {
			minimumScore: options.minimumScore as number | undefined,
			intents: options.intents as string[] | undefined,
			channels: options.channels as string[] | undefined,
			statuses: options.statuses as string[] | undefined,
		},
		// The flat output is the current lead: it is read whatever the Fetch Current Lead switch says.
		fetchCurrentLead: options.fetchCurrentLead === true || options.output === CURRENT_LEAD_FLAT,
		replayWindow: replayWindowOf(options.maxEventAge),
	};
}

/**
 * The Signing Secret parameter of workflows saved before the secret moved to a credential: it
 * is hidden now, and still read so that those workflows keep verifying their deliveries.
 */
export function legacySigningSecret(context: NodeContext): string | undefined {
	const value = context.getNodeParameter('signingSecret', '') as string;
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The secret the user gave, which always wins over the one the service returned on
 * subscribing: the Signing Secret credential first, then the old parameter.
 */
export async function userSigningSecret(context: NodeContext): Promise<string | undefined> {
	return (await signingSecretFromCredential(context)) ?? legacySigningSecret(context);
}
