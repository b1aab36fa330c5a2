// Every enum, limit and prefix of the service specification as the nodes read it, written once for
// all nodes. The sandbox keeps its own reading (sandbox/constants.ts) and never imports this file;
// test/sandbox/specReadings.test.ts fails when the two readings differ.

export const CREDENTIAL_NAME = 'leadConversationsApi';

// Leads
export const LEAD_ID_PREFIX = 'lead_';
export const LEAD_STATUSES = [
	'new',
	'in_conversation',
	'qualified',
	'assigned',
	'closed',
	'lost',
] as const;
export const LEAD_INTENTS = [
	'purchase_30_days',
	'purchase_90_days',
	'browsing',
	'unknown',
] as const;
/** Channels a lead can be created with or filtered by. */
export const LEAD_CHANNELS = [
	'chat_app',
	'social_a',
	'social_b',
	'marketplace',
	'web_form',
	'email',
	'phone',
] as const;
/** Channel the service records for a lead created through the interface without a channel. */
export const LEAD_API_CHANNEL = 'api';

// Conversations and messages
export const CONVERSATION_ID_PREFIX = 'conv_';
export const MESSAGE_ID_PREFIX = 'msg_';
export const CONVERSATION_CHANNELS = [
	'chat_app',
	'social_a',
	'social_b',
	'email',
	'phone',
] as const;
export const CONVERSATION_STATUSES = ['open', 'closed', 'transferred'] as const;
/** Only an open conversation accepts a human message. */
export const CONVERSATION_STATUS_OPEN = 'open';
/** A phone conversation carries a transcript instead of messages. */
export const TRANSCRIPT_CHANNEL = 'phone';
export const MESSAGE_TYPES = ['text', 'audio', 'image', 'document'] as const;
/** Types a human message can be posted with; `image` and `document` carry a URL as content. */
export const POSTABLE_MESSAGE_TYPES = ['text', 'image', 'document'] as const;
export const MEDIA_MESSAGE_TYPES: readonly string[] = ['image', 'document'];

// Agents
export const AGENT_STATUSES = ['active', 'inactive', 'draft'] as const;
/** `draft` is reached only by creating an agent in the dashboard. */
export const AGENT_SETTABLE_STATUSES = ['active', 'inactive'] as const;
export const AGENT_LANGUAGES = ['es-AR', 'es-MX', 'es-CR', 'es-CO', 'pt-BR', 'en-US'] as const;
export const AGENT_TONES = ['formal', 'friendly', 'professional'] as const;
export const AGENT_CHANNELS = [
	'chat_app',
	'social_a',
	'social_b',
	'web',
	'email',
	'phone',
] as const;

// Webhook events: only `lead.qualified` is named by the specification; the others are the names
// chosen in docs/service-contract.md §8 (the trigger still accepts any typed name).
export const WEBHOOK_EVENTS = [
	'lead.created',
	'lead.qualified',
	'lead.assigned',
	'appointment.booked',
	'conversation.status_changed',
	'conversation.milestone',
] as const;
export const WEBHOOK_ALL_EVENTS = '*';
export const SIGNATURE_HEADER = 'x-service-signature';

// Limits
export const PAGE_SIZE_MIN = 1;
export const PAGE_SIZE_MAX = 100;
export const SCORE_MIN = 0;
export const SCORE_MAX = 100;
/** 1,000 requests per minute per key. */
export const RATE_LIMIT_PER_MINUTE = 1000;
export const RATE_LIMIT_WINDOW_MS = 60_000;

// IDs fill one segment of a path (GET /leads/{id}), so an ID holding a space, `/`, `?` or `#` is
// refused. Written as the inside of a regular-expression character class, for the ID checks and
// the ID fields alike.
export const ID_FORBIDDEN_CHARACTERS = '\\s/?#';

// Headers
export const RATE_LIMIT_REMAINING_HEADER = 'x-ratelimit-remaining';
export const RATE_LIMIT_RESET_HEADER = 'x-ratelimit-reset';
export const RETRY_AFTER_HEADER = 'retry-after';

export type LeadStatus = (typeof LEAD_STATUSES)[number];
export type LeadIntent = (typeof LEAD_INTENTS)[number];
export type LeadChannel = (typeof LEAD_CHANNELS)[number];
export type ConversationChannel = (typeof CONVERSATION_CHANNELS)[number];
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export type PostableMessageType = (typeof POSTABLE_MESSAGE_TYPES)[number];
export type AgentStatus = (typeof AGENT_STATUSES)[number];
export type AgentLanguage = (typeof AGENT_LANGUAGES)[number];
export type AgentTone = (typeof AGENT_TONES)[number];
