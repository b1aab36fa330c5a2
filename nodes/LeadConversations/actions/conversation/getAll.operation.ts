import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	CONVERSATION_CHANNELS,
	CONVERSATION_STATUSES,
	LEAD_ID_PREFIX,
} from '../../../shared/constants';
import { collectListPages } from '../../../shared/transport';
import { checkIdPrefix, checkOneOf, firstProblem, ifGiven } from '../../../shared/validation';
import { leadLocator } from '../common.descriptions';
import { collectionParameter, givenOnly, readListOptions, throwIfInvalid } from '../input';
import { optionsOf } from '../../../shared/labels';
import { listOptionsForNodeOrTool } from '../tool.descriptions';

const properties: INodeProperties[] = [
	...listOptionsForNodeOrTool('conversations'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Channel',
				name: 'channel',
				type: 'options',
				default: 'chat_app',
				options: optionsOf(CONVERSATION_CHANNELS),
				description: 'Only conversations held on this channel',
			},
			{
				...leadLocator,
				required: false,
				description: 'Only conversations of this lead',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'open',
				options: optionsOf(CONVERSATION_STATUSES),
				description: 'Only conversations in this status',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['getAll'] } },
	properties,
);

/** A resource locator inside a collection arrives as { mode, value }. */
function leadIdOf(value: unknown): string | undefined {
	const raw = value && typeof value === 'object' ? (value as { value?: unknown }).value : value;
	if (raw === undefined || raw === null) return undefined;
	const id = String(raw).trim();
	return id === '' ? undefined : id;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const list = readListOptions.call(this, itemIndex);
	const filters = collectionParameter.call(this, 'filters', itemIndex);
	const leadId = leadIdOf(filters.lead);
	throwIfInvalid.call(
		this,
		itemIndex,
		firstProblem(
			ifGiven(checkOneOf, 'Channel', filters.channel, CONVERSATION_CHANNELS),
			ifGiven(checkIdPrefix, 'Filters → Lead', leadId, LEAD_ID_PREFIX),
			ifGiven(checkOneOf, 'Status', filters.status, CONVERSATION_STATUSES),
		),
	);

	const query = givenOnly({ lead_id: leadId, channel: filters.channel, status: filters.status });
	return await collectListPages.call(this, '/conversations', query, { ...list, itemIndex });
}
