import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { WEBHOOK_ALL_EVENTS, WEBHOOK_EVENTS } from '../../../shared/constants';
import { apiRequest } from '../../../shared/transport';
import { subscribedEvents } from '../../../shared/events/eventNames';
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
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: [
			{ name: 'All Events', value: WEBHOOK_ALL_EVENTS },
			...WEBHOOK_EVENTS.map((event) => ({ name: event, value: event })),
		],
		default: ['lead.qualified'],
		description:
			'The events to deliver. The specification confirms only "lead.qualified"; the other names are the ones the service is expected to send.',
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
				displayName: 'Other Event Names',
				name: 'otherEvents',
				type: 'string',
				default: '',
				placeholder: 'lead.updated, conversation.closed',
				description: 'Event names that are not in the list, separated by commas',
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
	const events = subscribedEvents(
		Array.isArray(chosen) ? chosen.map(String) : [],
		trimmedText(extra.otherEvents) ?? '',
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
