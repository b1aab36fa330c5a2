import type { INodeParameters } from 'n8n-workflow';

import type { StoredConversation } from '../../../../sandbox';
import {
	apiRequests,
	jsonOf,
	ref,
	run,
	useSandbox,
	visibleTrace,
	seededConversation,
	operationRunner,
} from '../helpers';

const ctx = useSandbox({ leads: 600 }, { resetEach: false });
const runOperation = operationRunner(ctx, 'conversation', 'sendMessage');

const conversationWhere = (test: (conversation: StoredConversation) => boolean) =>
	seededConversation(ctx.sandbox, test);

describe('Conversation → Send Message', () => {
	const open = () => conversationWhere((c) => c.status === 'open' && c.channel !== 'phone');

	test.each([
		['text', 'Hola, soy Juan de la concesionaria'],
		['image', 'https://cdn.example.com/hilux.jpg'],
		['document', 'http://cdn.example.com/quote.pdf'],
	])('posts a %s message once as a human advisor', async (type, content) => {
		const conversation = open();
		const before = conversation.messages.length;
		const result = await runOperation({ conversation: ref('id', conversation.id), type, content });
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
		await runOperation({
			conversation: ref('id', conversation.id),
			content: 'I take it from here',
			pauseAi: true,
		});
		expect(ctx.sandbox.control.state().pausedConversations).toContain(conversation.id);
	});

	test('a conversation that is not open is refused with a clear message, nothing is posted', async () => {
		const closed = conversationWhere((c) => c.status === 'closed' && c.channel !== 'phone');
		const before = closed.messages.length;
		const result = await runOperation({ conversation: ref('id', closed.id), content: 'Hello?' });
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
