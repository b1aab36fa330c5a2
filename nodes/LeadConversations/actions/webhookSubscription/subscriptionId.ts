import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checkPlainId } from '../../../shared/validation';
import { throwIfInvalid } from '../input';

export const subscriptionIdProperty: INodeProperties = {
	displayName: 'Subscription ID',
	name: 'subscriptionId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. wh_3f9a1c2b',
	description: 'The ID the service returned when the subscription was created',
};

/** The subscription's ID, checked, as one path segment. */
export function subscriptionPath(this: IExecuteFunctions, itemIndex: number): string {
	const id = String(this.getNodeParameter('subscriptionId', itemIndex, '') ?? '').trim();
	throwIfInvalid.call(this, itemIndex, checkPlainId('Subscription ID', id));
	return `/webhooks/${encodeURIComponent(id)}`;
}
