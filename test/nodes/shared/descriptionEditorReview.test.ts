// What a review of the nodes in n8n's editor found, checked on the descriptions n8n reads. The
// browser-driven check of the same points is test/e2e/specs/editor-review.e2e.ts.

import {
	NodeHelpers,
	NodeOperationError,
	Workflow,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { LeadConversations } from '../../../nodes/LeadConversations/LeadConversations.node';
import { LeadConversationsPollTrigger } from '../../../nodes/LeadConversationsPollTrigger/LeadConversationsPollTrigger.node';
import { LeadConversationsTrigger } from '../../../nodes/LeadConversationsTrigger/LeadConversationsTrigger.node';
import { assertHttpsWebhookUrl } from '../../../nodes/LeadConversationsTrigger/subscription/rules';
import { ACTION_NODE_TYPE, createNodeTypes } from '../../../harness/engine/nodeTypes';

const action = new LeadConversations().description;
const trigger = new LeadConversationsTrigger().description;
const poll = new LeadConversationsPollTrigger().description;

/** Every property at any depth, with the path of collections it sits in. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [
		property,
		...(property.type === 'collection' ? allProperties(property.options as INodeProperties[]) : []),
	]);
}

function named(description: INodeTypeDescription, name: string): INodeProperties[] {
	return allProperties(description.properties).filter((property) => property.name === name);
}

function shownFor(resource: string, operation: string): INodeProperties[] {
	return action.properties.filter(
		(p) =>
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	);
}

function optionName(property: INodeProperties, value: string): string | undefined {
	return (property.options as INodePropertyOptions[]).find((option) => option.value === value)
		?.name;
}

/** The subtitle as n8n's editor evaluates it for a node with these parameters. */
function subtitleOf(type: string, description: INodeTypeDescription, parameters: INodeParameters) {
	const node: INode = {
		id: 'n',
		name: 'Node',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: createNodeTypes({ poll: new LeadConversationsPollTrigger() }),
	});
	return workflow.expression.getSimpleParameterValue(
		node,
		description.subtitle!,
		'internal',
		{},
		undefined,
		'',
	);
}

describe('labels: one source for every node (8)', () => {
	it('names purchase_30_days "Purchase Within 30 Days" in all three nodes', () => {
		const intents = [
			...named(action, 'intent'),
			...named(trigger, 'intents'),
			...named(poll, 'intents'),
		];
		expect(intents).toHaveLength(3);
		for (const property of intents) {
			expect(optionName(property, 'purchase_30_days')).toBe('Purchase Within 30 Days');
		}
	});

	it('names the channel api "API" in both triggers', () => {
		for (const description of [trigger, poll]) {
			expect(optionName(named(description, 'channels')[0], 'api')).toBe('API');
		}
	});
});

describe('subtitles read as words (10)', () => {
	it('the polling trigger shows the chosen event as the Event dropdown names it', () => {
		expect(subtitleOf('poll', poll, { event: 'newLead' })).toBe('New Lead');
		expect(subtitleOf('poll', poll, { event: 'leadStatus' })).toBe('Lead Reached a Status');
	});

	it('the webhook trigger shows the chosen events as the Events dropdown names them', () => {
		const type = 'n8n-nodes-lead-conversations.leadConversationsTrigger';
		expect(subtitleOf(type, trigger, { events: ['lead.qualified'] })).toBe('Lead Qualified');
		expect(subtitleOf(type, trigger, { events: ['lead.qualified', 'lead.assigned'] })).toBe(
			'Lead Qualified, Lead Assigned',
		);
		expect(subtitleOf(type, trigger, { events: ['*', 'lead.somethingNew'] })).toBe(
			'All Events, lead.somethingNew',
		);
		expect(trigger.triggerPanel).toMatchObject({ header: expect.not.stringMatching(/Listening/) });
	});

	it('the action node shows "Operation: Resource" in the dropdowns\' words', () => {
		const subtitle = (resource: string, operation: string) =>
			subtitleOf(ACTION_NODE_TYPE, action, { resource, operation });
		expect(subtitle('conversation', 'sendMessage')).toBe('Send Message: Conversation');
		expect(subtitle('webhookSubscription', 'create')).toBe('Create: Webhook Subscription');
		expect(subtitle('lead', 'getAll')).toBe('Get Many: Lead');
		// A value no option names (a newer operation, say) still shows.
		expect(subtitle('lead', 'somethingNew')).toBe('somethingNew: lead');
	});
});

describe('Only New Since Last Run (3, 11)', () => {
	const [option] = named(action, 'onlyNewSinceLastRun');

	it('is offered only with Return All on, so its first run cannot fail for want of it', () => {
		expect(option.displayOptions).toEqual({ show: { '/returnAll': [true] } });
		const node = { typeVersion: 1.1 } as INode;
		const keep = (returnAll: boolean) =>
			NodeHelpers.getNodeParameters(
				action.properties,
				{
					resource: 'lead',
					operation: 'getAll',
					returnAll,
					options: { onlyNewSinceLastRun: true },
				},
				false,
				false,
				node,
				action,
			)?.options;
		expect(keep(true)).toEqual({ onlyNewSinceLastRun: true });
		expect(keep(false)).toEqual({});
	});

	it("speaks in a user's words and links the README", () => {
		expect(option.description).not.toMatch(/static data|queue mode|workers/i);
		expect(option.description).toContain('#only-new-since-last-run');
	});
});

describe('the webhook trigger and Webhook Subscription → Create (1, 6, 7, 9, 15)', () => {
	it('places Other Event Names right below Events in both, with the same event list', () => {
		const create = shownFor('webhookSubscription', 'create');
		const names = create.map((p) => p.name);
		expect(names.indexOf('otherEvents')).toBe(names.indexOf('events') + 1);
		expect(trigger.properties[0].name).toBe('events');
		expect(trigger.properties[1].name).toBe('otherEvents');
		const events = create.find((p) => p.name === 'events')!;
		expect(events.options).toEqual(trigger.properties[0].options);
		const listed = (events.options as INodePropertyOptions[]).map((o) => o.name);
		expect(listed[0]).toBe('All Events');
		expect(listed.slice(1)).toEqual([...listed.slice(1)].sort((a, b) => a.localeCompare(b)));
		expect(listed).toContain('Lead Created');
	});

	it('words the Events tooltips without doubting the product', () => {
		for (const events of [
			trigger.properties[0],
			shownFor('webhookSubscription', 'create').find((p) => p.name === 'events')!,
		]) {
			expect(events.description).not.toMatch(/specification|expected to send/i);
			expect(events.description).toContain('Other Event Names');
		}
	});

	it('has its own trigger panel text naming the https fix and the Polling Trigger', () => {
		const panel = trigger.triggerPanel as { executionsHelp: { inactive: string } };
		expect(panel.executionsHelp.inactive).toContain('N8N_WEBHOOK_URL');
		expect(panel.executionsHelp.inactive).toContain('Lead Conversations Polling Trigger');
	});

	it('puts the fix and the alternative into the message a plain-http n8n shows', () => {
		let thrown: unknown;
		try {
			assertHttpsWebhookUrl({ name: 'Trigger' } as INode, 'http://localhost:5678/webhook/x');
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(NodeOperationError);
		const { message } = thrown as NodeOperationError;
		for (const part of ['N8N_WEBHOOK_URL', 'tunnel', 'N8N_PROXY_HOPS', 'Polling Trigger']) {
			expect(message).toContain(part);
		}
	});
});

describe('fields of the action node (2, 12, 13, 14, 17)', () => {
	it('gives each new Handoff Triggers row a blank text, not []', () => {
		const [handoff] = named(action, 'handoffTriggers');
		expect(handoff.typeOptions?.multipleValues).toBe(true);
		expect(handoff.default).toBe('');
	});

	it('clears the advisor only through Fields to Clear in new nodes, hiding what is cleared', () => {
		const fields = shownFor('lead', 'update').find((p) => p.name === 'updateFields')!;
		const options = fields.options as INodeProperties[];
		const byName = (name: string) => options.find((o) => o.name === name)!;
		expect(optionName(byName('clearFields'), 'assigned_to')).toBe('Assigned To');
		expect(byName('assignedTo').displayOptions).toEqual({
			hide: { clearFields: ['assigned_to'] },
		});
		expect(byName('unassign').displayOptions).toEqual({ show: { '@version': [1] } });
		expect(byName('status').description).toBeTruthy();
	});

	it('writes every "Add …" placeholder in title case', () => {
		const placeholders = [action, trigger, poll]
			.flatMap((description) => allProperties(description.properties))
			.filter((p) => p.type === 'collection')
			.map((p) => p.placeholder);
		expect(placeholders.length).toBeGreaterThan(5);
		for (const placeholder of placeholders) expect(placeholder).toMatch(/^Add [A-Z]/);
	});

	it('keeps the event age label short, with the unit in the hint', () => {
		for (const [age] of [named(action, 'maxEventAge'), named(trigger, 'maxEventAge')]) {
			expect(age.displayName).toBe('Max Event Age');
			expect(age.hint).toMatch(/^In minutes/);
		}
	});

	it("lists the lower score bound before the upper one in Get Many's Filters", () => {
		const filters = shownFor('lead', 'getAll').find((p) => p.name === 'filters')!;
		const names = (filters.options as INodeProperties[]).map((o) => o.name);
		expect(names.indexOf('scoreMin')).toBe(names.indexOf('scoreMax') - 1);
	});
});

describe('the nodes panel (16)', () => {
	it("gives the merged entry, which shows the trigger's description, words for both nodes", () => {
		expect(trigger.description).toMatch(/leads, conversations and AI agents/);
		expect(trigger.description).toMatch(/start workflows on its events/);
	});

	it("says that lead.updated is the Polling Trigger's own name, and offers it nowhere as a service event", () => {
		const outputs = named(poll, 'output').filter((property) =>
			String(property.description).includes('lead.updated'),
		);
		expect(outputs).toHaveLength(1);
		expect(outputs[0].description).toMatch(
			/a name this node gives \(the service sends no such event\)/,
		);
		for (const description of [trigger, poll, action]) {
			expect(JSON.stringify(named(description, 'otherEvents'))).not.toContain('lead.updated');
		}
	});

	it('lists the polling trigger as "Lead Conversations Polling"', () => {
		expect(poll.displayName.replace('Trigger', '').trimEnd()).toBe('Lead Conversations Polling');
	});
});
