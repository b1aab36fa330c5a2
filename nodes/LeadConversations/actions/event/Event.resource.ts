import type { INodeProperties } from 'n8n-workflow';

import * as verify from './verify.operation';

export const eventDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['event'] } },
		options: [
			{
				name: 'Verify',
				value: 'verify',
				description:
					'Check a delivery received by a Webhook node: signature, replay window and duplicates, then output the event as the trigger does',
				action: 'Verify a webhook event',
			},
		],
		default: 'verify',
	},
	...verify.description,
];

/** Operations that read all input items at once and choose the output of each. */
export const eventOperations = { verify };
