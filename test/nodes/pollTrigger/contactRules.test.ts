// What counts as contact, without HTTP: the Workflow Notices (version 2 and Assigned Lead
// Contacted), version 1's 60-second grace, and what a wrong notice list answers.

import { NodeHelpers } from 'n8n-workflow';

import { LeadConversationsPollTrigger } from '../../../nodes/LeadConversationsPollTrigger/LeadConversationsPollTrigger.node';
import {
	EXAMPLE_NOTICES,
	NOTICE_GRACE_MS,
	contactWindowStart,
	conversationsToOpen,
	countsAsContact,
	firstContact,
	isNotice,
	noticesOf,
} from '../../../nodes/LeadConversationsPollTrigger/contactRule';

const T = Date.parse('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const message = (sent_by: string, ms: number, content = 'Hi, Ana here. When can I call you?') => ({
	sent_by,
	created_at: at(ms),
	content,
});
const notices = { notices: noticesOf(EXAMPLE_NOTICES) as string[] };
const grace = { graceMs: NOTICE_GRACE_MS };

describe('Workflow Notices', () => {
	test("an advisor's answer 5 s after the start counts; the notice at 5 s does not", () => {
		expect(countsAsContact(message('human', T + 5_000), T, notices)).toBe(true);
		const notice = message('human', T + 5_000, 'An advisor will contact you shortly.');
		expect(countsAsContact(notice, T, notices)).toBe(false);
	});

	test('a notice matches trimmed, ignoring case and repeated spaces, and by its beginning', () => {
		expect(isNotice('  an ADVISOR will  contact you shortly ', notices.notices)).toBe(true);
		expect(isNotice('An advisor will contact you shortly, Maria. Thanks!', notices.notices)).toBe(
			true,
		);
		expect(
			isNotice('Thank you for waiting. Another advisor will contact you shortly.', notices.notices),
		).toBe(true);
		expect(isNotice('Thank you for waiting.', notices.notices)).toBe(false);
		expect(isNotice('Hello! An advisor will contact you shortly', notices.notices)).toBe(false);
	});

	test('a notice and an answer in the same second: the answer is the first contact', () => {
		const conversation = {
			messages: [
				message('human', T + 5_000, 'An advisor will contact you shortly'),
				message('human', T + 5_400, 'Ana here, calling you now'),
			],
		};
		expect(firstContact(conversation, T, notices)?.content).toBe('Ana here, calling you now');
	});

	test('the earliest counted message is the first contact, whatever the order given', () => {
		const conversation = {
			messages: [message('human', T + 90_000, 'second'), message('human', T + 30_000, 'first')],
		};
		expect(firstContact(conversation, T, notices)?.content).toBe('first');
	});

	test('not contact: the AI, the lead, a message before the start, a phone transcript', () => {
		const conversation = {
			messages: [
				message('ai_agent', T + 5_000),
				message('lead', T + 6_000),
				message('human', T - 1, 'Ana here, from before the assignment'),
			],
		};
		expect(firstContact(conversation, T, notices)).toBeUndefined();
		const call = { transcript: '[2026-03-01T10:00:05Z] Agent: Hi, Ana here' };
		expect(firstContact(call, T, notices)).toBeUndefined();
	});

	test('a message at the very start counts; the window opens just before it', () => {
		expect(countsAsContact(message('human', T), T, notices)).toBe(true);
		const conversations = [
			{ id: 'old', last_message_at: at(T - 1) },
			{ id: 'now', last_message_at: at(T) },
		];
		expect(conversationsToOpen(conversations, contactWindowStart(T, notices))).toEqual(['now']);
	});

	test('an empty list: every human message counts', () => {
		expect(noticesOf('')).toEqual([]);
		const notice = message('human', T + 1, 'An advisor will contact you shortly');
		expect(countsAsContact(notice, T, { notices: [] })).toBe(true);
	});

	test('text is one notice per line, blank lines ignored; a list of texts is accepted too', () => {
		expect(noticesOf('First notice here\n\n  Second notice  \r\nFirst notice here')).toEqual([
			'first notice here',
			'second notice',
		]);
		expect(noticesOf(['One notice text', 'Other notice text'])).toHaveLength(2);
	});

	test.each([
		[42, /Workflow Notices must be text/],
		[{ text: 'An advisor will call' }, /Workflow Notices must be text/],
		[['An advisor will call', 7], /Workflow Notices must be text/],
		[null, /Workflow Notices must be text/],
		['Hi\nAn advisor will call', /Workflow Notices: "hi" is shorter than 8 characters/],
	])('%j: an answer naming the field', (value, answer) => {
		expect(noticesOf(value)).toMatch(answer);
	});
});

describe("version 1's grace", () => {
	test('a human message counts only more than 60 s after the start, notice or not', () => {
		expect(countsAsContact(message('human', T + 5_000), T, grace)).toBe(false);
		expect(countsAsContact(message('human', T + 60_000), T, grace)).toBe(false);
		expect(countsAsContact(message('human', T + 60_001), T, grace)).toBe(true);
		const notice = message('human', T + 65_000, 'An advisor will contact you shortly');
		expect(countsAsContact(notice, T, grace)).toBe(true);
		expect(countsAsContact(message('ai_agent', T + 5 * 60_000), T, grace)).toBe(false);
	});

	test('only conversations with something after the grace are opened, newest first', () => {
		const conversations = [
			{ id: 'c1', last_message_at: at(T + 30_000) },
			{ id: 'c2', last_message_at: at(T + 2 * 60_000) },
			{ id: 'c3', last_message_at: at(T + 9 * 60_000) },
			{ id: 'c4', last_message_at: at(T - 9 * 60_000) },
		];
		expect(conversationsToOpen(conversations, contactWindowStart(T, grace))).toEqual(['c3', 'c2']);
	});
});

describe('node versions', () => {
	const { description } = new LeadConversationsPollTrigger();
	// What n8n's editor and engine read from a saved node: its parameters at its own version.
	const parametersAt = (typeVersion: number, event: string) => {
		const node = {
			id: 'n',
			name: 'Trigger',
			type: 'x',
			typeVersion,
			position: [0, 0] as [number, number],
			parameters: { event },
		};
		return NodeHelpers.getNodeParameters(
			description.properties,
			{ event },
			true,
			false,
			node,
			description,
		);
	};

	test('a new node is version 2; a saved version 1 node keeps the grace (no Workflow Notices)', () => {
		expect(description.version).toEqual([1, 2]);
		expect(description.defaultVersion).toBe(2);
		expect(parametersAt(1, 'assignedNotContacted')?.workflowNotices).toBeUndefined();
		expect(parametersAt(2, 'assignedNotContacted')?.workflowNotices).toBe(
			EXAMPLE_NOTICES.join('\n'),
		);
		expect(parametersAt(1, 'assignedContacted')?.workflowNotices).toBe(EXAMPLE_NOTICES.join('\n'));
	});
});
