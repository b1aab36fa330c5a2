import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { subscriptionIdProperty, subscriptionPath } from './subscriptionId';

export const description = updateDisplayOptions(
	{ show: { resource: ['webhookSubscription'], operation: ['delete'] } },
	[subscriptionIdProperty],
);

/**
 * 404 and 405 mean there is nothing left to delete (`docs/service-contract.md` §7), so cleaning up twice,
 * or after the dashboard did, is not an error.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const path = subscriptionPath.call(this, itemIndex);
	const id = decodeURIComponent(path.slice('/webhooks/'.length));
	try {
		await apiRequest.call(this, 'DELETE', path, { itemIndex });
		return [{ id, deleted: true }];
	} catch (error) {
		const status = Number((error as { httpCode?: unknown }).httpCode);
		if (status === 404 || status === 405) return [{ id, deleted: false, alreadyGone: true }];
		throw new NodeApiError(this.getNode(), error as JsonObject, { itemIndex });
	}
}
