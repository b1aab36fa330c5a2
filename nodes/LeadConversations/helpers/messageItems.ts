// "One item per message" output of Conversation → Get: each message becomes an item that also
// names its conversation, so later nodes can process messages one by one. A phone conversation
// has a transcript instead of messages; each speaker line of it becomes an item.

import type { IDataObject } from 'n8n-workflow';

// "[2025-03-01T10:00:00Z] Lead: Hello" or "Agent: Hello"; the timestamp is optional.
const TRANSCRIPT_TURN = /^\s*(?:\[([^\]]+)\]\s*)?(Agent|Lead)\s*:\s?(.*)$/i;

function conversationContext(conversation: IDataObject): IDataObject {
	return {
		conversation_id: conversation.id ?? null,
		lead_id: conversation.lead_id ?? null,
		channel: conversation.channel ?? null,
		conversation_status: conversation.status ?? null,
	};
}

function timestampOrNull(text: string | undefined): string | null {
	if (!text) return null;
	return Number.isNaN(Date.parse(text)) ? null : text;
}

/** Speaker lines of a transcript as turns; other lines (call start, call end) are context. */
export function transcriptTurns(transcript: string): IDataObject[] {
	const turns: IDataObject[] = [];
	for (const line of transcript.split(/\r?\n/)) {
		const match = TRANSCRIPT_TURN.exec(line);
		if (!match) continue;
		const speaker = match[2].toLowerCase() === 'lead' ? 'Lead' : 'Agent';
		turns.push({
			speaker,
			direction: speaker === 'Lead' ? 'inbound' : 'outbound',
			content: match[3].trim(),
			created_at: timestampOrNull(match[1]),
		});
	}
	return turns;
}

/** One entry per message (or transcript turn), each carrying its conversation's identity. */
export function conversationToMessageItems(conversation: IDataObject): IDataObject[] {
	const context = conversationContext(conversation);
	if (Array.isArray(conversation.messages) && conversation.messages.length > 0) {
		return (conversation.messages as IDataObject[]).map((message) => ({
			...context,
			...message,
			// The message's own conversation_id wins only if the conversation did not name one.
			conversation_id: context.conversation_id ?? message.conversation_id ?? null,
		}));
	}
	if (typeof conversation.transcript === 'string' && conversation.transcript.trim() !== '') {
		return transcriptTurns(conversation.transcript).map((turn) => ({ ...context, ...turn }));
	}
	return [];
}
