// What counts as an advisor reaching a lead, as pure functions. The service records the workflow's
// own notices ("an advisor will contact you shortly", posted through the API) as `human` messages
// too, so they are told apart by their text: a `human` message created at or after the wait's
// start is contact unless its text, trimmed and ignoring case and repeated spaces, equals or
// begins with one of the Workflow Notices. Version 1 of Assigned Lead Not Contacted keeps its
// original rule instead: a `human` message more than 60 s after the start.
// A phone call's transcript does not say whether a person or the AI spoke: never contact.

import type { IDataObject } from 'n8n-workflow';

/** Version 1's grace: messages this soon after the wait's start are taken as the notice. */
export const NOTICE_GRACE_MS = 60_000;
/** A shorter notice would also match the beginning of ordinary answers ("Hi", "Hello"). */
export const NOTICE_MIN_LENGTH = 8;

/** The notices the package's examples post, the default of Workflow Notices. */
export const EXAMPLE_NOTICES = [
	'An advisor will contact you shortly',
	'Thank you for waiting. Another advisor will contact you shortly.',
];

export type ContactRule = { graceMs: number } | { notices: string[] };

const normalized = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** The notices from the field (text, one per line, or a list of texts), or what is wrong. */
export function noticesOf(value: unknown): string[] | string {
	const field = 'Workflow Notices';
	const texts =
		typeof value === 'string' ? value.split(/\r?\n/) : Array.isArray(value) ? value : undefined;
	if (texts === undefined || texts.some((text) => typeof text !== 'string')) {
		return `${field} must be text, one notice per line, or a list of texts; got ${JSON.stringify(value)}`;
	}
	const notices = (texts as string[]).map(normalized).filter((text) => text !== '');
	const short = notices.find((notice) => notice.length < NOTICE_MIN_LENGTH);
	if (short !== undefined) {
		return `${field}: "${short}" is shorter than ${NOTICE_MIN_LENGTH} characters, so an advisor's answer beginning with it would not count as contact`;
	}
	return [...new Set(notices)];
}

export function isNotice(content: unknown, notices: string[]): boolean {
	if (typeof content !== 'string') return false;
	const text = normalized(content);
	return notices.some((notice) => text.startsWith(notice));
}

const timeOf = (value: unknown): number =>
	typeof value === 'string' ? Date.parse(value) : Number.NaN;

/** Whether a message counts as the advisor reaching the lead, for a wait started at startMs. */
export function countsAsContact(message: unknown, startMs: number, rule: ContactRule): boolean {
	const { sent_by: sentBy, created_at: createdAt, content } = (message ?? {}) as IDataObject;
	if (sentBy !== 'human') return false;
	const at = timeOf(createdAt);
	if ('graceMs' in rule) return at > startMs + rule.graceMs;
	return at >= startMs && !isNotice(content, rule.notices);
}

/** The earliest message of a conversation read whole that counts as contact, if any. */
export function firstContact(
	conversation: IDataObject,
	startMs: number,
	rule: ContactRule,
): IDataObject | undefined {
	const messages = Array.isArray(conversation.messages) ? conversation.messages : [];
	return (messages as IDataObject[])
		.filter((message) => countsAsContact(message, startMs, rule))
		.sort((a, b) => timeOf(a.created_at) - timeOf(b.created_at))[0];
}

/** Messages after this (epoch ms) may count as contact: only conversations with some are opened. */
export function contactWindowStart(startMs: number, rule: ContactRule): number {
	return 'graceMs' in rule ? startMs + rule.graceMs : startMs - 1;
}

/** Conversations with a message after `afterMs`, newest first: only those are opened. */
export function conversationsToOpen(conversations: IDataObject[], afterMs: number): string[] {
	return conversations
		.filter((conversation) => timeOf(conversation.last_message_at) > afterMs)
		.sort((a, b) => timeOf(b.last_message_at) - timeOf(a.last_message_at))
		.map((conversation) => conversation.id)
		.filter((id): id is string => typeof id === 'string' && id !== '');
}
