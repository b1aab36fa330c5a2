import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { AGENT_STATUSES } from '../../../shared/constants';
import { collectListPages } from '../../../shared/transport';
import { checkOneOf, ifGiven } from '../../../shared/validation';
import { collectionParameter, givenOnly, readListOptions, throwIfInvalid } from '../input';
import { optionsOf } from '../../../shared/labels';
import { listOptionsForNodeOrTool } from '../tool.descriptions';

const properties: INodeProperties[] = [
	...listOptionsForNodeOrTool('agents'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'active',
				options: optionsOf(AGENT_STATUSES),
				description: 'Only agents in this status',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['agent'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const list = readListOptions.call(this, itemIndex);
	const filters = collectionParameter.call(this, 'filters', itemIndex);
	throwIfInvalid.call(
		this,
		itemIndex,
		ifGiven(checkOneOf, 'Status', filters.status, AGENT_STATUSES),
	);
	const query = givenOnly({ status: filters.status });
	return await collectListPages.call(this, '/agents', query, { ...list, itemIndex });
}
