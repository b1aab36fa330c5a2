import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	AGENT_STATUSES,
	CONVERSATION_CHANNELS,
	CONVERSATION_STATUSES,
	LEAD_CHANNELS,
	LEAD_INTENTS,
	LEAD_STATUSES,
} from '../../../nodes/shared/constants';
import { LeadConversations } from '../../../nodes/LeadConversations/LeadConversations.node';
import {
	operationsByResource,
	wholeInputOperations,
} from '../../../nodes/LeadConversations/actions/router';

const description = new LeadConversations().description;

function shownFor(resource: string, operation: string): INodeProperties[] {
	return description.properties.filter(
		(p) =>
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	);
}

function field(resource: string, operation: string, name: string): INodeProperties {
	const found = shownFor(resource, operation).find((p) => p.name === name);
	if (!found) throw new Error(`${resource} ${operation} has no field ${name}`);
	return found;
}

function valuesOf(options: INodeProperties['options']): string[] {
	return ((options ?? []) as INodePropertyOptions[]).map((o) => String(o.value)).sort();
}

function filterOf(resource: string, name: string): INodeProperties {
	const filters = field(resource, 'getAll', 'filters').options as INodeProperties[];
	const found = filters.find((f) => f.name === name);
	if (!found) throw new Error(`${resource} filters have no ${name}`);
	return found;
}

test('the node is "Lead Conversations", usable as a tool, with operation and resource as subtitle', () => {
	expect(description.displayName).toBe('Lead Conversations');
	expect(description.name).toBe('leadConversations');
	expect(description.usableAsTool).toBe(true);
	expect(description.subtitle).toContain('$parameter["operation"]');
	expect(description.subtitle).toContain('$parameter["resource"]');
	// The API key for every resource but Event; Event: Verify needs only the signing secret.
	expect(description.credentials).toEqual([
		{
			name: 'leadConversationsApi',
			required: true,
			displayOptions: { hide: { resource: ['event'] } },
		},
		expect.objectContaining({
			name: 'leadConversationsSigningSecretApi',
			required: true,
			displayOptions: { show: { resource: ['event'] } },
		}),
	]);
});

// Per-item operations and those that take the whole input (Event: Verify), as the router runs them.
const allOperations = { ...operationsByResource, ...wholeInputOperations };
const resources = Object.keys(allOperations);

test('the Resource dropdown offers exactly the resources the node runs', () => {
	const resource = description.properties.find((p) => p.name === 'resource')!;
	expect(valuesOf(resource.options)).toEqual([...resources].sort());
});

test.each(resources)(
	'%s offers exactly the operations its resource file runs, each with an action and a description for AI tools',
	(resource) => {
		const operation = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
		)!;
		const options = operation.options as INodePropertyOptions[];
		expect(options.map((o) => o.value).sort()).toEqual(Object.keys(allOperations[resource]).sort());
		for (const option of options) {
			expect(option.action).toMatch(/^(Assign|Create|Get|Update|Send|Delete|Verify) /);
			expect((option.description ?? '').length).toBeGreaterThan(30);
		}
	},
);

test.each(resources.filter((resource) => 'getAll' in allOperations[resource]))(
	'%s Get Many has Return All and Limit (min 1)',
	(resource) => {
		expect(field(resource, 'getAll', 'returnAll').default).toBe(false);
		const limit = field(resource, 'getAll', 'limit');
		expect(limit.typeOptions?.minValue).toBe(1);
		expect(limit.displayOptions?.show?.returnAll).toEqual([false]);
	},
);

test('every filter of the specification is offered, with the allowed values', () => {
	const leadFilters = (field('lead', 'getAll', 'filters').options as INodeProperties[]).map(
		(f) => f.name,
	);
	expect(leadFilters.sort()).toEqual(
		['channel', 'createdAfter', 'createdBefore', 'intent', 'scoreMax', 'scoreMin', 'status'].sort(),
	);
	expect(valuesOf(filterOf('lead', 'status').options)).toEqual([...LEAD_STATUSES].sort());
	expect(valuesOf(filterOf('lead', 'intent').options)).toEqual([...LEAD_INTENTS].sort());
	expect(valuesOf(filterOf('lead', 'channel').options)).toEqual([...LEAD_CHANNELS].sort());
	expect(valuesOf(filterOf('lead', 'channel').options)).not.toContain('api');
	expect(valuesOf(filterOf('conversation', 'channel').options)).toEqual(
		[...CONVERSATION_CHANNELS].sort(),
	);
	expect(valuesOf(filterOf('conversation', 'status').options)).toEqual(
		[...CONVERSATION_STATUSES].sort(),
	);
	expect(filterOf('conversation', 'lead').type).toBe('resourceLocator');
	expect(valuesOf(filterOf('agent', 'status').options)).toEqual([...AGENT_STATUSES].sort());
});

test('IDs are resource locators with a searchable list and a prefix-checked ID mode', () => {
	for (const [resource, operation, name, method, prefix] of [
		['lead', 'get', 'lead', 'searchLeads', 'lead_'],
		['conversation', 'get', 'conversation', 'searchConversations', 'conv_'],
		// Send Message lists only what can take a message.
		['conversation', 'sendMessage', 'conversation', 'searchOpenConversations', 'conv_'],
		['agent', 'update', 'agent', 'searchAgents', ''],
	] as const) {
		const locator = field(resource, operation, name);
		expect(locator.type).toBe('resourceLocator');
		const [list, byId] = locator.modes!;
		expect(list.typeOptions).toEqual({ searchListMethod: method, searchable: true });
		const regex = new RegExp(
			(byId.validation![0] as unknown as { properties: { regex: string } }).properties.regex,
		);
		if (prefix) {
			expect(regex.test(`${prefix}abc`)).toBe(true);
			expect(regex.test('other_abc')).toBe(false);
		}
		expect(regex.test('a b')).toBe(false);
	}
});

test('Create lead defaults the channel to api; Send Message offers text, image and document', () => {
	const channel = field('lead', 'create', 'channel');
	expect(channel.default).toBe('api');
	expect(valuesOf(channel.options)).toEqual(['api', ...LEAD_CHANNELS].sort());
	expect(valuesOf(field('conversation', 'sendMessage', 'type').options)).toEqual([
		'document',
		'image',
		'text',
	]);
	expect(field('conversation', 'sendMessage', 'pauseAi').default).toBe(false);
});
