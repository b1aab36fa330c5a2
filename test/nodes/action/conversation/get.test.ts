import type { IDataObject } from 'n8n-workflow';

import type { StoredConversation } from '../../../../sandbox';
import {
	apiRequests,
	jsonOf,
	ref,
	run,
	useSandbox,
	seededConversation,
	operationRunner,
} from '../helpers';

const ctx = useSandbox({ leads: 600 }, { resetEach: false });
const runOperation = operationRunner(ctx, 'conversation', 'get');

const conversationWhere = (test: (conversation: StoredConversation) => boolean) =>
	seededConversation(ctx.sandbox, test);

describe('Conversation → Get', () => {
	test('returns the AI summary and the messages, oldest first', async () => {
		const stored = conversationWhere((c) => c.channel !== 'phone' && c.messages.length > 2);
		const result = await runOperation({ conversation: ref('list', stored.id) });
		const [conversation] = jsonOf(result);
		expect(conversation).toMatchObject({ id: stored.id, ai_summary: stored.ai_summary });
		expect((conversation.messages as IDataObject[]).map((m) => m.id)).toEqual(
			stored.messages.map((m) => m.id),
		);
	});

	test('a phone conversation returns its transcript', async () => {
		const stored = conversationWhere((c) => c.channel === 'phone');
		const result = await runOperation({ conversation: ref('id', stored.id) });
		expect(jsonOf(result)[0].transcript).toBe(stored.transcript);
	});

	test('One Item per Message outputs each message with its conversation, paired to the input', async () => {
		const stored = conversationWhere((c) => c.channel !== 'phone' && c.messages.length > 2);
		const result = await runOperation({
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
		const result = await runOperation({
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
		const result = await runOperation({ conversation: ref('id', 'conv_missing') });
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
