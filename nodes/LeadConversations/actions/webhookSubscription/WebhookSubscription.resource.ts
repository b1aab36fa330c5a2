import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';

export const webhookSubscriptionOperations = { create, delete: del, get };

export const webhookSubscriptionDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhookSubscription'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					"Subscribe an https:// URL (a Webhook node's production URL) to events; the output holds the signing secret, shown only this once",
				action: 'Create a webhook subscription',
			},
			{
				name: 'Delete',
				value: 'delete',
				description:
					'Unsubscribe, for example an endpoint a deleted trigger left behind; one already gone is reported, not an error',
				action: 'Delete a webhook subscription',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a subscription by its ID (without its secret)',
				action: 'Get a webhook subscription',
			},
		],
		default: 'create',
	},
	...create.description,
	...get.description,
	...del.description,
];
