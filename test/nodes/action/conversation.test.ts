import type { StoredConversation } from '../../../sandbox';
import { jsonOf, ref, run, useSandbox, seededConversation } from './helpers';
import { expectRefusedBeforeSending, refusals, withExpression } from './refusals';

const ctx = useSandbox({ leads: 600 }, { resetEach: false });

const conversationWhere = (test: (conversation: StoredConversation) => boolean) =>
	seededConversation(ctx.sandbox, test);

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
			['One Item per Message', 'options.splitMessages', 'yes', 'must be true or false (got "yes")'],
		]).map((row) => ({ ...row, operation: 'get' as const, action: 'Get a conversation' })),
	)(
		'$action refuses $field $shown from an expression, naming $field and item 0, before any request',
		async ({ operation, ...refusal }) => {
			await expectRefusedBeforeSending(ctx.sandbox, operations[operation](), refusal);
		},
	);

	test.each(
		refusals([
			['Return All', 'returnAll', 'true', 'must be true or false (got "true")'],
			['Limit', 'limit', 3.5, 'must be a whole number of at least 1 (got 3.5)'],
			['Channel', 'filters.channel', 'web_form', `must be one of ${CHANNELS} (got "web_form")`],
			[
				'Channel',
				'filters.channel',
				'marketplace',
				`must be one of ${CHANNELS} (got "marketplace")`,
			],
			[
				'Status',
				'filters.status',
				'pending',
				'must be one of open, closed, transferred (got "pending")',
			],
		]),
	)(
		'Get many conversations refuses $field $shown from an expression, naming $field and item 0, before any request',
		async (refusal) => {
			await expectRefusedBeforeSending(ctx.sandbox, operations.getAll(), refusal);
		},
	);

	test.each(
		refusals([
			['Pause AI', 'pauseAi', 'yes', 'must be true or false (got "yes")'],
			['Pause AI', 'pauseAi', 1, 'must be true or false (got 1)'],
			['Type', 'type', 'audio', 'must be one of text, image, document (got "audio")'],
			['Type', 'type', 'Text', 'must be one of text, image, document (got "Text")'],
			['Content', 'content', { text: 'Hola' }, 'must be text (got {"text":"Hola"})'],
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
