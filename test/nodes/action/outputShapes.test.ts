import { FLAT_LEAD_COLUMNS, flattenLead } from '../../../nodes/shared/flatLead';
import {
	conversationToMessageItems,
	transcriptTurns,
} from '../../../nodes/LeadConversations/helpers/messageItems';

describe('Flat lead rows', () => {
	test('columns come in the same order whatever order the service used', () => {
		const lead = {
			organization_id: 'org_alpha',
			score: 80,
			id: 'lead_1',
			name: 'Ana',
			extra_field: 'not a column',
		};
		const row = flattenLead(lead);
		expect(Object.keys(row)).toEqual([...FLAT_LEAD_COLUMNS]);
		expect(row).toMatchObject({
			id: 'lead_1',
			name: 'Ana',
			score: 80,
			email: null,
			assigned_to: null,
		});
		expect(row).not.toHaveProperty('extra_field');
	});
	test('a structured value becomes JSON text in its column', () => {
		expect(flattenLead({ vehicle_interest: { make: 'Ford' } }).vehicle_interest).toBe(
			'{"make":"Ford"}',
		);
	});
});

describe('one item per message', () => {
	const conversation = {
		id: 'conv_1',
		lead_id: 'lead_1',
		channel: 'chat_app',
		status: 'open',
		ai_summary: 'Wants a pickup',
		messages: [
			{
				id: 'msg_1',
				conversation_id: 'conv_1',
				direction: 'inbound',
				type: 'text',
				content: 'Hi',
				sent_by: 'lead',
				created_at: '2025-05-01T10:00:00Z',
			},
			{
				id: 'msg_2',
				conversation_id: 'conv_1',
				direction: 'outbound',
				type: 'text',
				content: 'Hello',
				sent_by: 'ai_agent',
				created_at: '2025-05-01T10:01:00Z',
			},
		],
	};

	test('each message carries its conversation, in the original order', () => {
		const items = conversationToMessageItems(conversation);
		expect(items.map((item) => item.id)).toEqual(['msg_1', 'msg_2']);
		expect(items[0]).toEqual({
			conversation_id: 'conv_1',
			lead_id: 'lead_1',
			channel: 'chat_app',
			conversation_status: 'open',
			id: 'msg_1',
			direction: 'inbound',
			type: 'text',
			content: 'Hi',
			sent_by: 'lead',
			created_at: '2025-05-01T10:00:00Z',
		});
	});

	test('a conversation without messages gives no items', () => {
		expect(conversationToMessageItems({ ...conversation, messages: [] })).toEqual([]);
	});

	test('a transcript gives one item per speaker line, with or without timestamps', () => {
		const transcript = [
			'Call started 2025-05-01T10:00:00Z (+5491155550123)',
			'[2025-05-01T10:00:05Z] Agent: Good morning',
			'[2025-05-01T10:00:09Z] Lead: I saw the Hilux',
			'Agent: It is available',
			'Call ended 2025-05-01T10:05:00Z',
		].join('\n');
		expect(transcriptTurns(transcript)).toEqual([
			{
				speaker: 'Agent',
				direction: 'outbound',
				content: 'Good morning',
				created_at: '2025-05-01T10:00:05Z',
			},
			{
				speaker: 'Lead',
				direction: 'inbound',
				content: 'I saw the Hilux',
				created_at: '2025-05-01T10:00:09Z',
			},
			{ speaker: 'Agent', direction: 'outbound', content: 'It is available', created_at: null },
		]);
		const items = conversationToMessageItems({
			id: 'conv_2',
			lead_id: 'lead_2',
			channel: 'phone',
			status: 'closed',
			transcript,
		});
		expect(items).toHaveLength(3);
		expect(items[0]).toMatchObject({
			conversation_id: 'conv_2',
			channel: 'phone',
			speaker: 'Agent',
		});
	});
});
