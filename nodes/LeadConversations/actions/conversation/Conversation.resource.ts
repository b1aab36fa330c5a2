import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as sendMessage from './sendMessage.operation';

export const conversationOperations = { get, getAll, sendMessage };

export const conversationDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['conversation'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get one conversation by its ID (conv_…) with the AI summary and its messages, or the call transcript for phone',
				action: 'Get a conversation',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List conversations (without messages), optionally of one lead, channel or status',
				action: 'Get many conversations',
			},
			{
				name: 'Send Message',
				value: 'sendMessage',
				description:
					'Post a message as a human advisor into an open conversation, bypassing the AI; optionally pause the AI. Refused when the conversation is not open.',
				action: 'Send a message in a conversation',
			},
		],
		default: 'get',
	},
	...get.description,
	...getAll.description,
	...sendMessage.description,
];
