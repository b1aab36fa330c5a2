import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { subscribedEvents } from '../../../shared/events/eventNames';
import { otherEventNamesProperty, webhookEventsProperty } from '../../../shared/events/options';
import { collectionParameter, bodyAsItem, trimmedText, throwIfInvalid } from '../input';

const properties: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://n8n.example.com/webhook/lead-events',
		description:
			"The https:// address the service delivers to, such as a Webhook node's production URL",
	},
	webhookEventsProperty('The events the service delivers to the URL.'),
	// Below Events, as in the trigger; nodes saved at version 1 keep it under Additional Fields.
	{
		...otherEventNamesProperty,
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				description: "Shown in the service's dashboard next to the endpoint",
			},
			{
				...otherEventNamesProperty,
				displayOptions: { show: { '@version': [1] } },
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhookSubscription'], operation: ['create'] } },
	properties,
);

function httpsUrlProblem(value: unknown): string | undefined {
	const problem = `URL must be an https:// address, the only kind the service delivers to (got "${String(value)}")`;
	if (typeof value !== 'string') return problem;
	try {
		const url = new URL(value.trim());
		return url.protocol === 'https:' && url.hostname !== '' ? undefined : problem;
	} catch {
		return problem;
	}
}

/** The created subscription as the service returns it, with its signing secret (shown once). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const url = this.getNodeParameter('url', itemIndex, '') as unknown;
	throwIfInvalid.call(this, itemIndex, httpsUrlProblem(url));
	const extra = collectionParameter.call(this, 'additionalFields', itemIndex);
	const chosen = this.getNodeParameter('events', itemIndex, []) as unknown;
	// Version 1 nodes keep Other Event Names under Additional Fields; later ones below Events.
	const typed =
		this.getNode().typeVersion >= 1.1
			? this.getNodeParameter('otherEvents', itemIndex, '')
			: extra.otherEvents;
	const events = subscribedEvents(
		Array.isArray(chosen) ? chosen.map(String) : [],
		trimmedText(typed) ?? '',
	);
	throwIfInvalid.call(
		this,
		itemIndex,
		events.length === 0 ? 'Events must name at least one event' : undefined,
	);

	const body: IDataObject = { url: (url as string).trim(), events };
	const note = trimmedText(extra.description);
	if (note !== undefined) body.description = note;
	const { body: created } = await apiRequest.call(this, 'POST', '/webhooks', { body, itemIndex });
	return [bodyAsItem(created)];
}
