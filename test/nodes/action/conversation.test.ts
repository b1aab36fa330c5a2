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
