import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkPlainId } from '../../../shared/validation';
import { agentLocator } from '../common.descriptions';
import { locatorValue, throwIfInvalid } from '../input';
import { requestRecord } from '../record';

const properties: INodeProperties[] = [agentLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['agent'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const agentId = locatorValue.call(this, 'agent', itemIndex);
	throwIfInvalid.call(this, itemIndex, checkPlainId('Agent', agentId));

	const address = { collection: 'agents', label: 'Agent', id: agentId };
	return [await requestRecord.call(this, 'GET', address, { itemIndex })];
}
