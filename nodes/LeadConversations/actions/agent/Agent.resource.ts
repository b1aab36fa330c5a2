import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export const agentOperations = { get, getAll, update };

export const agentDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['agent'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get one AI agent by its ID, including its configuration',
				action: 'Get an agent',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List AI agents (without configuration), optionally by status',
				action: 'Get many agents',
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change the name, status, language, tone, handoff triggers or follow-up cadence of an AI agent',
				action: 'Update an agent',
			},
		],
		default: 'get',
	},
	...get.description,
	...getAll.description,
	...update.description,
];
