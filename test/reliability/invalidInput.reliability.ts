// Every invalid value of every field the node sends, per the tables of the service
// specification (and the node's own options that shape a request). Each case runs three items
// with On Error "Continue": every item must come back as an error naming the field and the
// item, and the service must receive nothing, since all of these can be checked locally.

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runActionNode, startTestSandbox, type RunningSandbox } from '../../harness/engine';
import { NODE, byId, credentialsOf } from './support/common';
import { count, recordFigure } from './support/figures';
import { SecretTrace } from './support/trace';

const ITEMS = 3;

let sandbox: RunningSandbox;
const trace = new SecretTrace('invalidInput.reliability.ts');
const ids = { lead: '', conversation: '', agent: '' };

beforeAll(async () => {
	sandbox = await startTestSandbox();
	trace.addApiKeys(sandbox);
	const state = sandbox.control.state();
	ids.lead = state.leads.find((lead) => lead.organization_id === 'org_alpha')!.id;
	ids.conversation = state.conversations.find(
		(c) => c.organization_id === 'org_alpha' && c.status === 'open' && c.channel !== 'phone',
	)!.id;
	ids.agent = state.agents.find((agent) => agent.organization_id === 'org_alpha')!.id;
});

afterAll(async () => {
	await sandbox.close();
});

/** Valid parameters of each operation; a case changes one field of them. */
function base(operation: string): INodeParameters {
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

interface Case {
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
}

const CASES: Case[] = [
	// POST /leads
	{ operation: 'lead.create', parameter: 'name', field: 'Name', values: ['', '   '] },
	{
		operation: 'lead.create',
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
		operation: 'lead.create',
		parameter: 'additionalFields.email',
		field: 'Email',
		values: ['not-an-email', 'ana@', 'ana perez@mail.com', '@mail.com'],
	},
	{
		operation: 'lead.create',
		parameter: 'channel',
		field: 'Channel',
		values: ['fax', 'Chat_App', 'whatsapp'],
	},
	// GET /leads/{id}
	{
		operation: 'lead.get',
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
	// PATCH /leads/{id}
	{
		operation: 'lead.update',
		parameter: 'lead',
		locator: true,
		field: 'Lead',
		values: ['conv_1', 'lead_x/y'],
	},
	{
		operation: 'lead.update',
		parameter: 'updateFields.status',
		field: 'Status',
		values: ['won', 'QUALIFIED'],
	},
	{
		operation: 'lead.update',
		parameter: 'updateFields.assignedTo',
		field: 'Assigned To',
		values: ['   '],
	},
	{
		operation: 'lead.update',
		parameter: 'updateFields.assignedTo',
		field: 'Assigned To',
		values: ['user_42'],
		with: (parameters) => ((parameters.updateFields as IDataObject).unassign = true),
	},
	{
		operation: 'lead.update',
		parameter: 'updateFields.notes',
		field: 'Notes',
		values: ['Call after 6 pm'],
		with: (parameters) => ((parameters.updateFields as IDataObject).clearFields = ['notes']),
	},
	{
		operation: 'lead.update',
		parameter: 'updateFields',
		field: 'Update Fields',
		values: [{}],
	},
	// GET /leads
	{ operation: 'lead.getAll', parameter: 'limit', field: 'Limit', values: [0, -5, 2.5] },
	{
		operation: 'lead.getAll',
		parameter: 'filters.scoreMin',
		field: 'Score Min',
		values: [-1, 101, 50.5],
	},
	{
		operation: 'lead.getAll',
		parameter: 'filters.scoreMax',
		field: 'Score Max',
		values: [-1, 101, 7.5],
	},
	{
		operation: 'lead.getAll',
		parameter: 'filters.scoreMin',
		field: 'Score Min',
		values: [80],
		with: (parameters) => ((parameters.filters as IDataObject).scoreMax = 20),
	},
	{
		operation: 'lead.getAll',
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
		operation: 'lead.getAll',
		parameter: 'filters.createdBefore',
		field: 'Created Before',
		values: ['tomorrow', '2025-00-10T00:00:00Z', '2025-04-31T00:00:00Z'],
	},
	{
		operation: 'lead.getAll',
		parameter: 'filters.createdAfter',
		field: 'Created After',
		values: ['2025-06-01T00:00:00Z'],
		with: (parameters) =>
			((parameters.filters as IDataObject).createdBefore = '2025-05-01T00:00:00Z'),
	},
	{
		operation: 'lead.getAll',
		parameter: 'filters.status',
		field: 'Status',
		values: ['won', 'New'],
	},
	{ operation: 'lead.getAll', parameter: 'filters.intent', field: 'Intent', values: ['buy_now'] },
	{
		operation: 'lead.getAll',
		parameter: 'filters.channel',
		field: 'Channel',
		values: ['api', 'fax'],
	},
	{
		operation: 'lead.getAll',
		parameter: 'options.onlyNewSinceLastRun',
		field: 'Only New Since Last Run',
		values: [true],
	},
	// GET /conversations
	{ operation: 'conversation.getAll', parameter: 'limit', field: 'Limit', values: [0, -1, 3.5] },
	{
		operation: 'conversation.getAll',
		parameter: 'filters.lead',
		locator: true,
		field: 'Lead',
		values: ['conv_1', 'lead_a b'],
	},
	{
		operation: 'conversation.getAll',
		parameter: 'filters.channel',
		field: 'Channel',
		values: ['web_form', 'marketplace'],
	},
	{
		operation: 'conversation.getAll',
		parameter: 'filters.status',
		field: 'Status',
		values: ['pending'],
	},
	// GET /conversations/{id}
	{
		operation: 'conversation.get',
		parameter: 'conversation',
		locator: true,
		field: 'Conversation',
		values: ['', 'lead_1', 'conv_', 'conv_a b', 'conv_a/b'],
	},
	// POST /conversations/{id}/messages
	{
		operation: 'conversation.sendMessage',
		parameter: 'conversation',
		locator: true,
		field: 'Conversation',
		values: ['', 'lead_1', 'conv_a?b'],
	},
	{
		operation: 'conversation.sendMessage',
		parameter: 'type',
		field: 'Type',
		values: ['audio', 'video'],
	},
	{
		operation: 'conversation.sendMessage',
		parameter: 'content',
		field: 'Content',
		values: ['', '  \n '],
	},
	{
		operation: 'conversation.sendMessage',
		parameter: 'content',
		field: 'Content',
		values: ['not a url', 'ftp://files.example.com/car.jpg', 'www.example.com/car.jpg'],
		with: (parameters) => (parameters.type = 'image'),
	},
	{
		operation: 'conversation.sendMessage',
		parameter: 'pauseAi',
		field: 'Pause AI',
		values: ['yes'],
	},
	// GET /agents/{id}
	{
		operation: 'agent.get',
		parameter: 'agent',
		locator: true,
		field: 'Agent',
		values: ['', 'a b', 'a/b', 'a?b'],
	},
	// GET /agents
	{ operation: 'agent.getAll', parameter: 'limit', field: 'Limit', values: [0, 1.5] },
	{ operation: 'agent.getAll', parameter: 'filters.status', field: 'Status', values: ['paused'] },
	// PATCH /agents/{id}
	{ operation: 'agent.update', parameter: 'agent', locator: true, field: 'Agent', values: ['a b'] },
	{ operation: 'agent.update', parameter: 'updateFields.name', field: 'Name', values: ['', '   '] },
	{
		operation: 'agent.update',
		parameter: 'updateFields.status',
		field: 'Status',
		values: ['draft', 'paused'],
	},
	{
		operation: 'agent.update',
		parameter: 'updateFields.language',
		field: 'Language',
		values: ['fr-FR', 'es'],
	},
	{ operation: 'agent.update', parameter: 'updateFields.tone', field: 'Tone', values: ['rude'] },
	{
		operation: 'agent.update',
		parameter: 'updateFields.maxFollowUps',
		field: 'Max Follow-Ups',
		values: [-1, 1.5],
	},
	{
		operation: 'agent.update',
		parameter: 'updateFields.followUpIntervalDays',
		field: 'Follow-Up Interval',
		values: [-2, 0.5],
	},
	{ operation: 'agent.update', parameter: 'updateFields', field: 'Update Fields', values: [{}] },
];

/** The value reaches the node through an expression on the item, as data from earlier nodes does. */
function parametersFor(testCase: Case, value: unknown): INodeParameters {
	const parameters = base(testCase.operation);
	testCase.with?.(parameters);
	const expression = typeof value === 'object' ? value : '={{ $json.value }}';
	const placed = testCase.locator ? byId(expression as string) : expression;
	const [name, option] = testCase.parameter.split('.');
	if (option === undefined) parameters[name] = placed as never;
	else (parameters[name] as IDataObject)[option] = placed as never;
	return parameters;
}

interface Outcome {
	label: string;
	field: string;
	requests: number;
	namesField: boolean;
	namesEveryItem: boolean;
	message: string;
}

const outcomes: Outcome[] = [];
const operations = [...new Set(CASES.map((testCase) => testCase.operation))];

it.each(operations)(
	'the valid parameters of %s run and reach the service (the baseline of the cases)',
	async (operation) => {
		sandbox.control.clearRequests();
		const result = await runActionNode(base(operation), credentialsOf(sandbox));
		trace.addRun(`valid ${operation}`, result);
		expect(result.error?.message).toBeUndefined();
		expect(sandbox.control.requests().length).toBeGreaterThan(0);
	},
);

const rows = CASES.flatMap((testCase) =>
	testCase.values.map(
		(value) =>
			[
				`${testCase.operation} ${testCase.parameter} = ${JSON.stringify(value)}`,
				testCase,
				value,
			] as const,
	),
);

it.each(rows)(
	'%s is refused for every item, naming the field and the item, with nothing sent',
	async (label, testCase, value) => {
		sandbox.control.clearRequests();
		const result = await runActionNode(parametersFor(testCase, value), credentialsOf(sandbox), {
			continueOnFail: true,
			inputItems: Array.from({ length: ITEMS }, () => ({ value }) as IDataObject),
		});
		trace.addRun(label, result);
		const items = result.output(NODE).map((item) => item.json);
		const requests = sandbox.control.requests().length;
		const messages = items.map((item) => `${String(item.error ?? '')}`);
		const outcome: Outcome = {
			label,
			field: testCase.field,
			requests,
			namesField:
				items.length === ITEMS && messages.every((message) => message.includes(testCase.field)),
			namesEveryItem:
				items.length === ITEMS &&
				messages.every((message, index) => message.includes(`item ${index}`)),
			message: messages[0] ?? result.error?.message ?? '',
		};
		outcomes.push(outcome);

		expect({
			requests,
			namesField: outcome.namesField,
			namesEveryItem: outcome.namesEveryItem,
			message: outcome.message,
		}).toEqual({
			requests: 0,
			namesField: true,
			namesEveryItem: true,
			message: outcome.message,
		});
	},
);

afterAll(() => {
	const fields = new Set(CASES.map((testCase) => `${testCase.operation} ${testCase.parameter}`));
	const refusedLocally = outcomes.filter((outcome) => outcome.requests === 0).length;
	const named = outcomes.filter((outcome) => outcome.namesField && outcome.namesEveryItem).length;
	const sent = outcomes.filter((outcome) => outcome.requests > 0);
	const unnamedLocal = outcomes.filter(
		(outcome) => outcome.requests === 0 && !(outcome.namesField && outcome.namesEveryItem),
	);
	/** "lead.create channel = "fax"" grouped by field: lead.create channel ("fax", "whatsapp") */
	const grouped = (list: Outcome[]) => {
		const byField = new Map<string, string[]>();
		for (const outcome of list) {
			const [field, value] = outcome.label.split(' = ');
			byField.set(field, [...(byField.get(field) ?? []), value]);
		}
		return [...byField].map(([field, values]) => `${field} (${values.join(', ')})`).join('; ');
	};
	recordFigure({
		id: 'invalidInput',
		pass:
			outcomes.length === rows.length &&
			refusedLocally === outcomes.length &&
			named === outcomes.length,
		measured:
			`${outcomes.length} invalid values of ${fields.size} fields in ${operations.length} operations, ${ITEMS} items each: ` +
			`${named}/${outcomes.length} refused with an error naming the field and every item, ${refusedLocally}/${outcomes.length} with nothing sent` +
			(sent.length
				? `; ${sent.length} values were sent to the service (${count(sent.reduce((sum, o) => sum + o.requests, 0))} requests) and came back as its 400, ` +
					`naming the service's field but not the item: ${grouped(sent)}`
				: '') +
			(unnamedLocal.length
				? `; refused locally without naming field and item: ${unnamedLocal.map((o) => `${o.label} ("${o.message}")`).join(', ')}`
				: ''),
	});
});

it('shows the API keys in no output item, error or log line of this file', () => {
	expect(trace.scan()).toEqual([]);
});
