import type { StoredConversation } from '../../sandbox';
import {
	call,
	CONVERSATION_LIST_FIELDS,
	ISO_Z,
	keysOf,
	listOrder,
	MESSAGE_FIELDS,
	walk,
	useService,
} from './helpers';

const ctx = useService();

function alphaConversations(
	filter: (c: StoredConversation) => boolean = () => true,
): StoredConversation[] {
	return ctx.sandbox.control
		.state()
		.conversations.filter((c) => c.organization_id === 'org_alpha' && filter(c))
		.sort(listOrder);
}

function find(filter: (c: StoredConversation) => boolean): StoredConversation {
	const found = alphaConversations(filter)[0];
	if (!found) throw new Error('no such seeded conversation');
	return found;
}

describe('GET /conversations', () => {
	it('lists conversations with the list fields only, a total and the default limit', async () => {
		const res = await call(ctx.sandbox, 'GET', '/conversations');
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(20);
		expect(keysOf(res.body.pagination)).toEqual(['has_more', 'limit', 'next_cursor', 'total']);
		expect(res.body.pagination.total).toBe(alphaConversations().length);
		for (const conversation of res.body.data) {
			expect(keysOf(conversation)).toEqual(CONVERSATION_LIST_FIELDS);
			expect(conversation.id).toMatch(/^conv_/);
			expect(conversation.last_message_at).toMatch(ISO_Z);
		}
	});

	it('walks all pages in created_at descending order', async () => {
		const { items } = await walk(ctx.sandbox, '/conversations', { limit: '50' });
		expect(items.map((c) => c.id)).toEqual(alphaConversations().map((c) => c.id));
	});

	it('has every channel and status among the seeded conversations', () => {
		const all = alphaConversations();
		for (const channel of ['chat_app', 'social_a', 'social_b', 'email', 'phone']) {
			for (const status of ['open', 'closed', 'transferred']) {
				expect(all.some((c) => c.channel === channel && c.status === status)).toBe(true);
			}
		}
	});

	it.each<[string, (c: StoredConversation) => Record<string, string>]>([
		['lead_id', (c) => ({ lead_id: c.lead_id })],
		['channel', () => ({ channel: 'social_b' })],
		['status', () => ({ status: 'transferred' })],
		['channel and status', () => ({ channel: 'chat_app', status: 'open' })],
	])('filters by %s across pages', async (_name, makeQuery) => {
		const sample = alphaConversations().find(
			(c) => alphaConversations((o) => o.lead_id === c.lead_id).length > 1,
		)!;
		const query = makeQuery(sample);
		const expected = alphaConversations(
			(c) =>
				(!query.lead_id || c.lead_id === query.lead_id) &&
				(!query.channel || c.channel === query.channel) &&
				(!query.status || c.status === query.status),
		);
		const { items, pages } = await walk(ctx.sandbox, '/conversations', { ...query, limit: '1' });
		expect(items.map((c) => c.id)).toEqual(expected.map((c) => c.id));
		expect(pages[0].body.pagination.total).toBe(expected.length);
	});

	it('returns nothing for a lead of another organization', async () => {
		const beta = ctx.sandbox.control
			.state()
			.conversations.find((c) => c.organization_id === 'org_beta')!;
		const res = await call(ctx.sandbox, 'GET', `/conversations?lead_id=${beta.lead_id}`);
		expect(res.body.data).toEqual([]);
		expect(res.body.pagination.total).toBe(0);
	});

	it.each([
		['channel', 'marketplace'],
		['channel', 'web_form'],
		['status', 'pending'],
		['lead_id', ''],
		['limit', '500'],
		['cursor', 'xyz'],
	])('refuses %s=%s', async (name, value) => {
		const res = await call(ctx.sandbox, 'GET', `/conversations?${name}=${value}`);
		expect(res.status).toBe(400);
		expect(res.body.error).toBe('invalid_request');
		expect(res.body.message.startsWith(name)).toBe(true);
	});
});

describe('GET /conversations/{id}', () => {
	it('returns messages oldest to newest and an ai_summary for a non-phone conversation', async () => {
		const conversation = find((c) => c.channel === 'chat_app');
		const res = await call(ctx.sandbox, 'GET', `/conversations/${conversation.id}`);
		expect(res.status).toBe(200);
		expect(keysOf(res.body)).toEqual(
			[...CONVERSATION_LIST_FIELDS, 'ai_summary', 'messages'].sort(),
		);
		expect(typeof res.body.ai_summary).toBe('string');
		expect(res.body.ai_summary).toMatch(/Vehicle interest/);
		expect(res.body.messages.length).toBeGreaterThan(0);
		const times = res.body.messages.map((m: { created_at: string }) => m.created_at);
		expect([...times].sort()).toEqual(times);
		for (const message of res.body.messages) {
			expect(keysOf(message)).toEqual(MESSAGE_FIELDS);
			expect(message.id).toMatch(/^msg_/);
			expect(message.conversation_id).toBe(conversation.id);
			expect(['inbound', 'outbound']).toContain(message.direction);
			expect(['text', 'audio', 'image', 'document']).toContain(message.type);
			expect(['ai_agent', 'human', 'lead']).toContain(message.sent_by);
			if (message.type !== 'text') expect(message.content).toMatch(/^https:\/\//);
		}
	});

	it('returns a transcript instead of messages for a phone conversation', async () => {
		const conversation = find((c) => c.channel === 'phone');
		const res = await call(ctx.sandbox, 'GET', `/conversations/${conversation.id}`);
		expect(keysOf(res.body)).toEqual(
			[...CONVERSATION_LIST_FIELDS, 'ai_summary', 'transcript'].sort(),
		);
		expect(res.body).not.toHaveProperty('messages');
		expect(res.body.transcript).toMatch(/\] Agent: /);
		expect(res.body.transcript).toMatch(/\] Lead: /);
		expect(res.body.transcript).toMatch(/\[\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\]/);
	});

	it('answers the flat 404 for a missing conversation and one of another organization', async () => {
		const beta = ctx.sandbox.control
			.state()
			.conversations.find((c) => c.organization_id === 'org_beta')!;
		for (const id of ['conv_missing', beta.id]) {
			const res = await call(ctx.sandbox, 'GET', `/conversations/${id}`);
			expect(res.status).toBe(404);
			expect(keysOf(res.body)).toEqual(['error', 'message']);
			expect(res.body.error).toBe('not_found');
		}
	});
});

describe('POST /conversations/{id}/messages', () => {
	it('posts a human text message into an open conversation', async () => {
		const conversation = find((c) => c.status === 'open' && c.channel !== 'phone');
		const res = await call(ctx.sandbox, 'POST', `/conversations/${conversation.id}/messages`, {
			body: { content: 'Hello, this is Carla from the showroom.' },
		});
		expect(res.status).toBe(201);
		expect(keysOf(res.body)).toEqual(MESSAGE_FIELDS);
		expect(res.body).toMatchObject({
			conversation_id: conversation.id,
			direction: 'outbound',
			sent_by: 'human',
			type: 'text',
			content: 'Hello, this is Carla from the showroom.',
		});
		expect(res.body.id).toMatch(/^msg_/);
		const after = await call(ctx.sandbox, 'GET', `/conversations/${conversation.id}`);
		expect(after.body.messages[after.body.messages.length - 1]).toEqual(res.body);
		expect(after.body.last_message_at).toBe(res.body.created_at);
		expect(after.body.status).toBe('open');
		expect(ctx.sandbox.control.state().pausedConversations).not.toContain(conversation.id);
	});

	it('posts image and document URLs and pauses the AI on request', async () => {
		const conversation = find((c) => c.status === 'open' && c.channel !== 'phone');
		const image = await call(ctx.sandbox, 'POST', `/conversations/${conversation.id}/messages`, {
			body: { content: 'https://cdn.example.com/brochure.jpg', type: 'image' },
		});
		expect(image.status).toBe(201);
		expect(image.body.type).toBe('image');
		const doc = await call(ctx.sandbox, 'POST', `/conversations/${conversation.id}/messages`, {
			body: { content: 'https://cdn.example.com/quote.pdf', type: 'document', pause_ai: true },
		});
		expect(doc.status).toBe(201);
		expect(doc.body.direction).toBe('outbound');
		expect(ctx.sandbox.control.state().pausedConversations).toContain(conversation.id);
		const after = await call(ctx.sandbox, 'GET', `/conversations/${conversation.id}`);
		expect(after.body.status).toBe('open');
	});

	it('adds the advisor line to the transcript of an open phone conversation', async () => {
		const conversation = find((c) => c.status === 'open' && c.channel === 'phone');
		const res = await call(ctx.sandbox, 'POST', `/conversations/${conversation.id}/messages`, {
			body: { content: 'I will call you back in ten minutes.' },
		});
		expect(res.status).toBe(201);
		const after = await call(ctx.sandbox, 'GET', `/conversations/${conversation.id}`);
		expect(after.body.transcript.endsWith('Agent: I will call you back in ten minutes.')).toBe(
			true,
		);
	});

	it.each(['closed', 'transferred'])(
		'answers 409 conversation_not_open for a %s conversation',
		async (status) => {
			const conversation = find((c) => c.status === status);
			const res = await call(ctx.sandbox, 'POST', `/conversations/${conversation.id}/messages`, {
				body: { content: 'Anyone there?' },
			});
			expect(res.status).toBe(409);
			expect(keysOf(res.body)).toEqual(['error', 'message']);
			expect(res.body.error).toBe('conversation_not_open');
			const after = await call(ctx.sandbox, 'GET', `/conversations/${conversation.id}`);
			expect(after.body.messages ?? []).toHaveLength(
				conversation.channel === 'phone' ? 0 : conversation.messages.length,
			);
		},
	);

	it.each([
		['content', {}],
		['content', { content: '' }],
		['content', { content: '   ' }],
		['content', { content: 5 }],
		['type', { content: 'hi', type: 'audio' }],
		['type', { content: 'hi', type: 'video' }],
		['content', { content: 'not a url', type: 'image' }],
		['pause_ai', { content: 'hi', pause_ai: 'yes' }],
	])('refuses an invalid %s with 400', async (field, body) => {
		const conversation = find((c) => c.status === 'open');
		const res = await call(ctx.sandbox, 'POST', `/conversations/${conversation.id}/messages`, {
			body,
		});
		expect(res.status).toBe(400);
		expect(res.body.error).toBe('invalid_request');
		expect(res.body.message.startsWith(field)).toBe(true);
	});

	it('answers the flat 404 for a missing conversation', async () => {
		const res = await call(ctx.sandbox, 'POST', '/conversations/conv_missing/messages', {
			body: { content: 'x' },
		});
		expect(res.status).toBe(404);
		expect(res.body.error).toBe('not_found');
	});
});
