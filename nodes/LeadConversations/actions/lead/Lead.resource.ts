import type { INodeProperties } from 'n8n-workflow';

import * as assign from './assign.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export const leadOperations = { assign, create, get, getAll, update };

export const leadDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['lead'] } },
		options: [
			{
				name: 'Assign',
				value: 'assign',
				description:
					'Give a lead without an advisor the next advisor of a roster, by turns or spread by lead ID; a lead that has one is left as it is',
				action: 'Assign a lead to an advisor',
			},
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a lead from a name and an E.164 phone number; it starts with status new, score 0 and no advisor',
				action: 'Create a lead',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one lead by its ID (lead_…) with score, intent, status and advisor',
				action: 'Get a lead',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List leads, optionally filtered by status, intent, channel, score range or creation date',
				action: 'Get many leads',
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change the status, advisor, vehicle interest or notes of a lead; only the given fields change',
				action: 'Update a lead',
			},
		],
		default: 'get',
	},
	...assign.description,
	...create.description,
	...get.description,
	...getAll.description,
	...update.description,
];
