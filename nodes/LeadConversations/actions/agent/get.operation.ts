import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { checkPlainId } from '../../../shared/validation';
import { agentLocator } from '../common.descriptions';
import { locatorValue, bodyAsItem, throwIfInvalid } from '../input';

const properties: INodeProperties[] = [agentLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['agent'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const agentId = locatorValue.call(this, 'agent', itemIndex);
	throwIfInvalid.call(this, itemIndex, checkPlainId('Agent', agentId));

	const path = `/agents/${encodeURIComponent(agentId)}`;
	const { body: agent } = await apiRequest.call(this, 'GET', path, {
		itemIndex,
		about: `Agent ${agentId}`,
	});
	return [bodyAsItem(agent)];
}
