import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { StoredConversation } from '../../../sandbox';
import { apiRequests, jsonOf, pages, ref, run, useSandbox, visibleTrace } from './helpers';
import { expectRefusedBeforeSending, refusals, withExpression } from './refusals';

const ctx = useSandbox({ leads: 600 }, { resetEach: false });

function alphaConversations(): StoredConversation[] {
	return ctx.sandbox.control
		.state()
		.conversations.filter((conversation) => conversation.organization_id === 'org_alpha');
}

function conversationWhere(
	test: (conversation: StoredConversation) => boolean,
): StoredConversation {
	const found = alphaConversations().find(test);
	if (!found) throw new Error('The seed has no such conversation');
	return found;
}

describe('Conversation → Get', () => {
	test('returns the AI summary and the messages, oldest first', async () => {
		const stored = conversationWhere((c) => c.channel !== 'phone' && c.messages.length > 2);
		const result = await run(ctx.sandbox, {
			resource: 'conversation',
			operation: 'get',
			conversation: ref('list', stored.id),
		});
		const [conversation] = jsonOf(result);
		expect(conversation).toMatchObject({ id: stored.id, ai_summary: stored.ai_summary });
		expect((conversation.messages as IDataObject[]).map((m) => m.id)).toEqual(
			stored.messages.map((m) => m.id),
		);
	});

	test('a phone conversation returns its transcript', async () => {
		const stored = conversationWhere((c) => c.channel === 'phone');
		const result = await run(ctx.sandbox, {
			resource: 'conversation',
			operation: 'get',
			conversation: ref('id', stored.id),
		});
		expect(jsonOf(result)[0].transcript).toBe(stored.transcript);
	});

	test('One Item per Message outputs each message with its conversation, paired to the input', async () => {
		const stored = conversationWhere((c) => c.channel !== 'phone' && c.messages.length > 2);
		const result = await run(ctx.sandbox, {
			resource: 'conversation',
			operation: 'get',
			conversation: ref('id', stored.id),
			options: { splitMessages: true },
		});
		const items = result.output('Lead Conversations');
		expect(items).toHaveLength(stored.messages.length);
		expect(items.map((item) => item.json.id)).toEqual(stored.messages.map((m) => m.id));
		for (const item of items) {
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json).toMatchObject({
				conversation_id: stored.id,
				lead_id: stored.lead_id,
				channel: stored.channel,
				conversation_status: stored.status,
			});
		}
	});

	test('One Item per Message splits a phone transcript into speaker turns', async () => {
		const stored = conversationWhere((c) => c.channel === 'phone');
		const result = await run(ctx.sandbox, {
			resource: 'conversation',
			operation: 'get',
			conversation: ref('id', stored.id),
			options: { splitMessages: true },
		});
		const turns = jsonOf(result);
		const speakerLines = stored
			.transcript!.split('\n')
			.filter((line) => /\] (Agent|Lead):/.test(line));
		expect(turns).toHaveLength(speakerLines.length);
		expect(turns[0]).toMatchObject({
			conversation_id: stored.id,
			speaker: expect.stringMatching(/^(Agent|Lead)$/),
		});
		expect(turns.every((turn) => typeof turn.created_at === 'string')).toBe(true);
	});

	test('an unknown conversation is "not found in this organization" (flat error shape)', async () => {
		const result = await run(ctx.sandbox, {
			resource: 'conversation',
			operation: 'get',
			conversation: ref('id', 'conv_missing'),
		});
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toBe('Conversation conv_missing not found in this organization');
		expect(result.error?.description).toMatch(/^HTTP 404 not_found: /);
	});
	test.each(['get', 'sendMessage'])(
		'%s: a conversation ID without "conv_" is refused before sending',
		async (operation) => {
			const result = await run(
				ctx.sandbox,
				{
					resource: 'conversation',
					operation,
					conversation: ref('id', '={{ $json.id }}'),
					content: 'Hello',
				},
				{ inputItems: [{ id: 'lead_123' }] },
			);
			expect(result.error?.message).toBe(
				'Conversation must be an ID starting with "conv_" (got "lead_123") [item 0]',
			);
			expect(apiRequests(ctx.sandbox)).toHaveLength(0);
		},
	);
});

describe('Conversation → Get Many', () => {
	const FILTERS = ['lead', 'channel', 'status'] as const;
	const SUBSETS = Array.from({ length: 8 }, (_, mask) =>
		FILTERS.filter((_n, bit) => mask & (2 ** bit)),
	);

	test.each(SUBSETS.map((subset) => [subset.join(' + ') || 'no filter', subset] as const))(
		'Return All with %s: every match once, ⌈N/100⌉ requests',
		async (_name, subset) => {
			const all = alphaConversations();
			const busiestLead = [...all.map((c) => c.lead_id)].sort(
				(a, b) =>
					all.filter((c) => c.lead_id === b).length - all.filter((c) => c.lead_id === a).length,
			)[0];
			const values = { lead: busiestLead, channel: 'chat_app', status: 'open' };
			const filters: INodeParameters = {};
			if (subset.includes('lead')) filters.lead = ref('list', values.lead);
			if (subset.includes('channel')) filters.channel = values.channel;
			if (subset.includes('status')) filters.status = values.status;

			const result = await run(ctx.sandbox, {
				resource: 'conversation',
				operation: 'getAll',
				returnAll: true,
				filters,
			});
			expect(result.error).toBeUndefined();
			const expected = all.filter(
				(c) =>
					(!subset.includes('lead') || c.lead_id === values.lead) &&
					(!subset.includes('channel') || c.channel === values.channel) &&
					(!subset.includes('status') || c.status === values.status),
			);
			const returned = jsonOf(result).map((c) => c.id as string);
			expect(new Set(returned).size).toBe(returned.length);
			expect(returned.sort()).toEqual(expected.map((c) => c.id).sort());
			const requests = apiRequests(ctx.sandbox, '/v1/conversations');
			expect(requests).toHaveLength(pages(expected.length));
			if (subset.includes('lead')) expect(requests[0].query.lead_id).toBe(values.lead);
			for (const later of requests.slice(1))
				expect(Object.keys(later.query).sort()).toEqual(['cursor', 'limit']);
		},
	);

	test('the unfiltered list spans at least 5 pages on this seed', () => {
		expect(pages(alphaConversations().length)).toBeGreaterThanOrEqual(5);
	});

	test('Limit 150 reads two pages of 100 and 50', async () => {
		const result = await run(ctx.sandbox, {
			resource: 'conversation',
			operation: 'getAll',
			limit: 150,
		});
		expect(jsonOf(result)).toHaveLength(150);
		expect(apiRequests(ctx.sandbox).map((r) => r.query.limit)).toEqual(['100', '50']);
	});

	test('a lead filter with the wrong prefix is refused before sending', async () => {
		const result = await run(
			ctx.sandbox,
			{
				resource: 'conversation',
				operation: 'getAll',
				filters: { lead: ref('id', '={{ $json.lead }}') },
			},
			{ inputItems: [{ lead: 'conv_1' }] },
		);
		expect(result.error?.message).toMatch(/^Filters → Lead must be an ID starting with "lead_"/);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});
});

describe('Conversation → Send Message', () => {
	const open = () => conversationWhere((c) => c.status === 'open' && c.channel !== 'phone');

	test.each([
		['text', 'Hola, soy Juan de la concesionaria'],
		['image', 'https://cdn.example.com/hilux.jpg'],
		['document', 'http://cdn.example.com/quote.pdf'],
	])('posts a %s message once as a human advisor', async (type, content) => {
		const conversation = open();
		const before = conversation.messages.length;
		const result = await run(ctx.sandbox, {
			resource: 'conversation',
			operation: 'sendMessage',
			conversation: ref('id', conversation.id),
			type,
			content,
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({
			conversation_id: conversation.id,
			type,
			content,
			direction: 'outbound',
			sent_by: 'human',
		});
		const after = ctx.sandbox.control.state().conversations.find((c) => c.id === conversation.id)!;
		expect(after.messages).toHaveLength(before + 1);
		expect(apiRequests(ctx.sandbox).map((r) => `${r.method} ${r.status}`)).toEqual(['POST 201']);
	});

	test('Pause AI pauses the AI for that conversation', async () => {
		const conversation = open();
		await run(ctx.sandbox, {
			resource: 'conversation',
			operation: 'sendMessage',
			conversation: ref('id', conversation.id),
			content: 'I take it from here',
			pauseAi: true,
		});
		expect(ctx.sandbox.control.state().pausedConversations).toContain(conversation.id);
	});

	test('a conversation that is not open is refused with a clear message, nothing is posted', async () => {
		const closed = conversationWhere((c) => c.status === 'closed' && c.channel !== 'phone');
		const before = closed.messages.length;
		const result = await run(ctx.sandbox, {
			resource: 'conversation',
			operation: 'sendMessage',
			conversation: ref('id', closed.id),
			content: 'Hello?',
		});
		expect(result.error?.message).toBe(
			`Conversation ${closed.id} is not open, so the message was not sent`,
		);
		expect(result.error?.httpCode).toBe('409');
		expect(result.error?.description).toMatch(/conversation_not_open/);
		expect(result.error?.description).toMatch(/Only open conversations accept messages/);
		const after = ctx.sandbox.control.state().conversations.find((c) => c.id === closed.id)!;
		expect(after.messages).toHaveLength(before);
		expect(apiRequests(ctx.sandbox)).toHaveLength(1);
		expect(visibleTrace(result)).not.toContain(ctx.sandbox.keys.full);
	});

	test.each([
		[
			{ content: '={{ $json.text }}' },
			/^Content is empty: a message needs text or a URL \[item 0\]$/,
		],
		[{ content: '   ' }, /^Content is empty/],
		[
			{ type: 'image', content: 'hilux.jpg' },
			/^Content must be a publicly accessible http\(s\) URL/,
		],
		[
			{ type: 'document', content: 'ftp://files.example.com/a.pdf' },
			/^Content must be a publicly accessible http\(s\) URL/,
		],
	])('bad input %p is refused before sending', async (change: INodeParameters, message) => {
		const parameters: INodeParameters = {
			resource: 'conversation',
			operation: 'sendMessage',
			conversation: ref('id', open().id),
			content: 'x',
		};
		const result = await run(
			ctx.sandbox,
			{ ...parameters, ...change },
			{ inputItems: [{ text: '' }] },
		);
		expect(result.error?.message).toMatch(message);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});
});

describe('Conversation, values from expressions', () => {
	const open = () => conversationWhere((c) => c.status === 'open' && c.channel !== 'phone');
	const operations = {
		get: () => ({ resource: 'conversation', operation: 'get', conversation: ref('id', open().id) }),
		getAll: () => ({ resource: 'conversation', operation: 'getAll', limit: 5 }),
		sendMessage: () => ({
			resource: 'conversation',
			operation: 'sendMessage',
			conversation: ref('id', open().id),
			type: 'text',
			content: 'Hola',
			pauseAi: false,
		}),
	};
	const CHANNELS = 'chat_app, social_a, social_b, email, phone';

	test.each(
		refusals([
			{
				field: 'One Item per Message',
				parameter: 'options.splitMessages',
				value: 'yes',
				message: 'One Item per Message must be true or false (got "yes")',
			},
		]).map((row) => ({ ...row, operation: 'get' as const, action: 'Get a conversation' })),
	)(
		'$action refuses $field $shown from an expression, naming $field and item 0, before any request',
		async ({ operation, ...refusal }) => {
			await expectRefusedBeforeSending(ctx.sandbox, operations[operation](), refusal);
		},
	);

	test.each(
		refusals([
			{
				field: 'Return All',
				parameter: 'returnAll',
				value: 'true',
				message: 'Return All must be true or false (got "true")',
			},
			{
				field: 'Limit',
				parameter: 'limit',
				value: 3.5,
				message: 'Limit must be a whole number of at least 1 (got 3.5)',
			},
			{
				field: 'Channel',
				parameter: 'filters.channel',
				value: 'web_form',
				message: `Channel must be one of ${CHANNELS} (got "web_form")`,
			},
			{
				field: 'Channel',
				parameter: 'filters.channel',
				value: 'marketplace',
				message: `Channel must be one of ${CHANNELS} (got "marketplace")`,
			},
			{
				field: 'Status',
				parameter: 'filters.status',
				value: 'pending',
				message: 'Status must be one of open, closed, transferred (got "pending")',
			},
		]),
	)(
		'Get many conversations refuses $field $shown from an expression, naming $field and item 0, before any request',
		async (refusal) => {
			await expectRefusedBeforeSending(ctx.sandbox, operations.getAll(), refusal);
		},
	);

	test.each(
		refusals([
			{
				field: 'Pause AI',
				parameter: 'pauseAi',
				value: 'yes',
				message: 'Pause AI must be true or false (got "yes")',
			},
			{
				field: 'Pause AI',
				parameter: 'pauseAi',
				value: 1,
				message: 'Pause AI must be true or false (got 1)',
			},
			{
				field: 'Type',
				parameter: 'type',
				value: 'audio',
				message: 'Type must be one of text, image, document (got "audio")',
			},
			{
				field: 'Type',
				parameter: 'type',
				value: 'Text',
				message: 'Type must be one of text, image, document (got "Text")',
			},
			{
				field: 'Content',
				parameter: 'content',
				value: { text: 'Hola' },
				message: 'Content must be text (got {"text":"Hola"})',
			},
		]),
	)(
		'Send message refuses $field $shown from an expression, naming $field and item 0, before any request',
		async (refusal) => {
			await expectRefusedBeforeSending(ctx.sandbox, operations.sendMessage(), refusal);
		},
	);

	test('Send message takes Pause AI true from an expression and pauses the AI', async () => {
		const parameters = operations.sendMessage();
		const result = await run(ctx.sandbox, withExpression(parameters, 'pauseAi'), {
			inputItems: [{ value: true }],
		});
		expect(result.error).toBeUndefined();
		expect(ctx.sandbox.control.state().pausedConversations).toContain(
			parameters.conversation.value,
		);
	});

	test('Send message takes Pause AI and Type that an expression finds nothing for (null) as their defaults', async () => {
		const paused = ctx.sandbox.control.state().pausedConversations;
		const conversation = conversationWhere(
			(c) => c.status === 'open' && c.channel !== 'phone' && !paused.includes(c.id),
		);
		const parameters = {
			...operations.sendMessage(),
			conversation: ref('id', conversation.id),
			pauseAi: '={{ $json.value }}',
			type: '={{ $json.value }}',
		};
		const result = await run(ctx.sandbox, parameters, { inputItems: [{ value: null }] });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({ type: 'text', content: 'Hola', sent_by: 'human' });
		expect(ctx.sandbox.control.state().pausedConversations).not.toContain(conversation.id);
	});
});
