import type {
	AgentRecord,
	ConversationRecord,
	LeadRecord,
	MessageRecord,
	WebhookRecord,
} from './types';

// Public shapes: each view lists its fields explicitly, so a response never carries an
// internal field (notes, organization of a conversation, the sort key...).

export function leadView(lead: LeadRecord) {
	return {
		id: lead.id,
		name: lead.name,
		phone: lead.phone,
		email: lead.email,
		channel: lead.channel,
		vehicle_interest: lead.vehicle_interest,
		score: lead.score,
		intent: lead.intent,
		status: lead.status,
		assigned_to: lead.assigned_to,
		created_at: lead.created_at,
		updated_at: lead.updated_at,
		last_activity_at: lead.last_activity_at,
		organization_id: lead.organization_id,
	};
}

/** `data` of lead.qualified (and lead.created): the lead's values at that time. */
export function leadEventData(
	lead: Pick<
		LeadRecord,
		'id' | 'name' | 'phone' | 'score' | 'intent' | 'vehicle_interest' | 'channel' | 'status'
	>,
) {
	return {
		id: lead.id,
		name: lead.name,
		phone: lead.phone,
		score: lead.score,
		intent: lead.intent,
		vehicle_interest: lead.vehicle_interest,
		channel: lead.channel,
		status: lead.status,
	};
}

export function conversationListView(conversation: ConversationRecord) {
	return {
		id: conversation.id,
		lead_id: conversation.lead_id,
		channel: conversation.channel,
		status: conversation.status,
		created_at: conversation.created_at,
		updated_at: conversation.updated_at,
		last_message_at: conversation.last_message_at,
	};
}

/** Single conversation: phone calls carry `transcript` instead of `messages`. */
export function conversationView(conversation: ConversationRecord) {
	const base = { ...conversationListView(conversation), ai_summary: conversation.ai_summary };
	return conversation.channel === 'phone'
		? { ...base, transcript: conversation.transcript ?? '' }
		: { ...base, messages: conversation.messages.map(messageView) };
}

export function messageView(message: MessageRecord) {
	return {
		id: message.id,
		conversation_id: message.conversation_id,
		direction: message.direction,
		type: message.type,
		content: message.content,
		sent_by: message.sent_by,
		created_at: message.created_at,
	};
}

export function agentListView(agent: AgentRecord) {
	return {
		id: agent.id,
		organization_id: agent.organization_id,
		name: agent.name,
		status: agent.status,
		language: agent.language,
		channels: [...agent.channels],
		created_at: agent.created_at,
		updated_at: agent.updated_at,
	};
}

export function agentView(agent: AgentRecord) {
	const c = agent.configuration;
	return {
		...agentListView(agent),
		configuration: {
			tone: c.tone,
			handoff_triggers: [...c.handoff_triggers],
			allowed_topics: [...c.allowed_topics],
			follow_up_cadence: { ...c.follow_up_cadence },
		},
	};
}

/** GET /webhooks/{id}: the secret is shown only once, at creation. */
export function webhookView(webhook: WebhookRecord) {
	return {
		id: webhook.id,
		url: webhook.url,
		events: [...webhook.events],
		description: webhook.description,
		created_at: webhook.created_at,
	};
}

export function webhookCreatedView(webhook: WebhookRecord) {
	return { ...webhookView(webhook), secret: webhook.secret };
}
