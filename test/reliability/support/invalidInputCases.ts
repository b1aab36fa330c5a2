// The invalid values of every field the action node sends, per the tables of the service
// specification (and the node's own options that shape a request), each placed into otherwise
// valid parameters of its operation.

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { byId } from './common';

/** Seeded records of org_alpha the valid parameters refer to. */
export interface SeededIds {
	lead: string;
	conversation: string;
	agent: string;
}

/** Valid parameters of each operation; a case changes one field of them. */
export function base(operation: string, ids: SeededIds): INodeParameters {
	const list = { returnAll: false, limit: 5, filters: {}, options: {} };
	const bases: Record<string, INodeParameters> = {
		'lead.create': {
			resource: 'lead',
			operation: 'create',
			name: 'Ana Pérez',
			phone: '+5491155550123',
			channel: 'api',
			additionalFields: {},
		},
		'lead.get': { resource: 'lead', operation: 'get', lead: byId(ids.lead) },
		'lead.update': {
			resource: 'lead',
			operation: 'update',
			lead: byId(ids.lead),
			updateFields: { vehicleInterest: 'Toyota Hilux 2024' },
		},
		'lead.getAll': { resource: 'lead', operation: 'getAll', ...list },
		'conversation.get': {
			resource: 'conversation',
			operation: 'get',
			conversation: byId(ids.conversation),
			options: {},
		},
		'conversation.getAll': { resource: 'conversation', operation: 'getAll', ...list },
		'conversation.sendMessage': {
			resource: 'conversation',
			operation: 'sendMessage',
			conversation: byId(ids.conversation),
			type: 'text',
			content: 'Hello from the reliability suite',
			pauseAi: false,
		},
		'agent.get': { resource: 'agent', operation: 'get', agent: byId(ids.agent) },
		'agent.getAll': { resource: 'agent', operation: 'getAll', ...list },
		'agent.update': {
			resource: 'agent',
			operation: 'update',
			agent: byId(ids.agent),
			updateFields: { name: 'Sofía' },
		},
	};
	return structuredClone(bases[operation]);
}

export interface Case {
	operation: string;
	/** Where the value goes: a parameter name, or "collection.option". */
	parameter: string;
	/** The words the error must contain to name the field. */
	field: string;
	values: unknown[];
	/** Other parameters the case needs (e.g. the type of a media message). */
	with?: (parameters: INodeParameters) => void;
	/** The value is a resource locator's ID. */
	locator?: boolean;
	/** The node version the case is about, when not the newest. */
	typeVersion?: number;
}

/** The cases of one operation. */
function casesOf(operation: string, cases: Array<Omit<Case, 'operation'>>): Case[] {
	return cases.map((testCase) => ({ operation, ...testCase }));
}

export const CASES: Case[] = [
	// POST /leads
	...casesOf('lead.create', [
		{ parameter: 'name', field: 'Name', values: ['', '   '] },
		{
			parameter: 'phone',
			field: 'Phone',
			values: [
				'',
				'5491155550123',
				'+0491155550123',
				'+54 911 5555 0123',
				'+1234567890123456',
				'+54-911-555',
				'abc',
				'+',
			],
		},
		{
			parameter: 'additionalFields.email',
			field: 'Email',
			values: ['not-an-email', 'ana@', 'ana perez@mail.com', '@mail.com'],
		},
		{ parameter: 'channel', field: 'Channel', values: ['fax', 'Chat_App', 'whatsapp'] },
	]),
	// GET /leads/{id}
	...casesOf('lead.get', [
		{
			parameter: 'lead',
			locator: true,
			field: 'Lead',
			values: [
				'',
				'   ',
				'conv_3h7d9q2w',
				'lead_',
				'lead_a b',
				'lead_a/b',
				'lead_a?b',
				'lead_a#b',
				'12345',
			],
		},
	]),
	// PATCH /leads/{id}
	...casesOf('lead.update', [
		{ parameter: 'lead', locator: true, field: 'Lead', values: ['conv_1', 'lead_x/y'] },
		{ parameter: 'updateFields.status', field: 'Status', values: ['won', 'QUALIFIED'] },
		{ parameter: 'updateFields.assignedTo', field: 'Assigned To', values: ['   '] },
		{
			parameter: 'updateFields.assignedTo',
			field: 'Assigned To',
			values: ['user_42'],
			with: (parameters) => ((parameters.updateFields as IDataObject).unassign = true),
			// Version 1.1 has no Unassign switch: Fields to Clear hides what it clears.
			typeVersion: 1,
		},
		// Notes and Fields to Clear → Notes cannot both be set any more: choosing Notes in Fields to
		// Clear hides Notes, and n8n drops a hidden value.
		{ parameter: 'updateFields', field: 'Update Fields', values: [{}] },
	]),
	// GET /leads
	...casesOf('lead.getAll', [
		{ parameter: 'limit', field: 'Limit', values: [0, -5, 2.5] },
		{ parameter: 'filters.scoreMin', field: 'Score At Least', values: [-1, 101, 50.5] },
		{ parameter: 'filters.scoreMax', field: 'Score At Most', values: [-1, 101, 7.5] },
		{
			parameter: 'filters.scoreMin',
			field: 'Score At Least',
			values: [80],
			with: (parameters) => ((parameters.filters as IDataObject).scoreMax = 20),
		},
		{
			parameter: 'filters.createdAfter',
			field: 'Created After',
			values: [
				'yesterday',
				'2025-13-01T00:00:00Z',
				'2025-02-30T10:00:00Z',
				'2025-05-01T25:00:00Z',
				'01/05/2025',
			],
		},
		{
			parameter: 'filters.createdBefore',
			field: 'Created Before',
			values: ['tomorrow', '2025-00-10T00:00:00Z', '2025-04-31T00:00:00Z'],
		},
		{
			parameter: 'filters.createdAfter',
			field: 'Created After',
			values: ['2025-06-01T00:00:00Z'],
			with: (parameters) =>
				((parameters.filters as IDataObject).createdBefore = '2025-05-01T00:00:00Z'),
		},
		{ parameter: 'filters.status', field: 'Status', values: ['won', 'New'] },
		{ parameter: 'filters.intent', field: 'Intent', values: ['buy_now'] },
		{ parameter: 'filters.channel', field: 'Channel', values: ['api', 'fax'] },
		// Only New Since Last Run without Return All cannot be set any more: the option is offered
		// with Return All only (test/nodes/shared/descriptionEditorReview.test.ts).
	]),
	// GET /conversations
	...casesOf('conversation.getAll', [
		{ parameter: 'limit', field: 'Limit', values: [0, -1, 3.5] },
		{ parameter: 'filters.lead', locator: true, field: 'Lead', values: ['conv_1', 'lead_a b'] },
		{ parameter: 'filters.channel', field: 'Channel', values: ['web_form', 'marketplace'] },
		{ parameter: 'filters.status', field: 'Status', values: ['pending'] },
	]),
	// GET /conversations/{id}
	...casesOf('conversation.get', [
		{
			parameter: 'conversation',
			locator: true,
			field: 'Conversation',
			values: ['', 'lead_1', 'conv_', 'conv_a b', 'conv_a/b'],
		},
	]),
	// POST /conversations/{id}/messages
	...casesOf('conversation.sendMessage', [
		{
			parameter: 'conversation',
			locator: true,
			field: 'Conversation',
			values: ['', 'lead_1', 'conv_a?b'],
		},
		{ parameter: 'type', field: 'Type', values: ['audio', 'video'] },
		{ parameter: 'content', field: 'Content', values: ['', '  \n '] },
		{
			parameter: 'content',
			field: 'Content',
			values: ['not a url', 'ftp://files.example.com/car.jpg', 'www.example.com/car.jpg'],
			with: (parameters) => (parameters.type = 'image'),
		},
		{ parameter: 'pauseAi', field: 'Pause AI', values: ['yes'] },
	]),
	// GET /agents/{id}
	...casesOf('agent.get', [
		{ parameter: 'agent', locator: true, field: 'Agent', values: ['', 'a b', 'a/b', 'a?b'] },
	]),
	// GET /agents
	...casesOf('agent.getAll', [
		{ parameter: 'limit', field: 'Limit', values: [0, 1.5] },
		{ parameter: 'filters.status', field: 'Status', values: ['paused'] },
	]),
	// PATCH /agents/{id}
	...casesOf('agent.update', [
		{ parameter: 'agent', locator: true, field: 'Agent', values: ['a b'] },
		{ parameter: 'updateFields.name', field: 'Name', values: ['', '   '] },
		{ parameter: 'updateFields.status', field: 'Status', values: ['draft', 'paused'] },
		{ parameter: 'updateFields.language', field: 'Language', values: ['fr-FR', 'es'] },
		{ parameter: 'updateFields.tone', field: 'Tone', values: ['rude'] },
		{ parameter: 'updateFields.maxFollowUps', field: 'Max Follow-Ups', values: [-1, 1.5] },
		{
			parameter: 'updateFields.followUpIntervalDays',
			field: 'Follow-Up Interval',
			values: [-2, 0.5],
		},
		{ parameter: 'updateFields', field: 'Update Fields', values: [{}] },
	]),
];

/** The value reaches the node through an expression on the item, as data from earlier nodes does. */
export function parametersFor(testCase: Case, value: unknown, ids: SeededIds): INodeParameters {
	const parameters = base(testCase.operation, ids);
	testCase.with?.(parameters);
	const expression = typeof value === 'object' ? value : '={{ $json.value }}';
	const placed = testCase.locator ? byId(expression as string) : expression;
	const [name, option] = testCase.parameter.split('.');
	if (option === undefined) parameters[name] = placed as never;
	else (parameters[name] as IDataObject)[option] = placed as never;
	return parameters;
}
