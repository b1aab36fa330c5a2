import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { bodyAsItem } from '../input';
import { subscriptionIdProperty, subscriptionPath } from './subscriptionId';

export const description = updateDisplayOptions(
	{ show: { resource: ['webhookSubscription'], operation: ['get'] } },
	[subscriptionIdProperty],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const path = subscriptionPath.call(this, itemIndex);
	const { body } = await apiRequest.call(this, 'GET', path, { itemIndex });
	return [bodyAsItem(body)];
}
