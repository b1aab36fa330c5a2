// The service's vocabulary as the sandbox reads it from the specification and, where that is
// silent, from docs/service-contract.md. The nodes keep their own reading in
// nodes/shared/constants.ts; the two are written apart on purpose and compared by
// test/sandbox/specReadings.test.ts, so a wrong value on one side fails a test instead of being
// mirrored by the other. Nothing here imports from nodes/.

// Leads (specification: "Lead" and "POST /leads")
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
/** Channels a lead is created with or filtered by. */
export const LEAD_CHANNELS = [
	'chat_app',
	'social_a',
	'social_b',
	'marketplace',
	'web_form',
	'email',
	'phone',
] as const;
/** Recorded for a lead created through the interface without a channel. */
export const LEAD_API_CHANNEL = 'api';
/** Every channel a stored lead can have. */
export const ALL_LEAD_CHANNELS = [...LEAD_CHANNELS, LEAD_API_CHANNEL] as const;

// Conversations and messages (specification: "Conversation", "Message", "POST .../messages")
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
export const MESSAGE_TYPES = ['text', 'audio', 'image', 'document'] as const;
export const POSTABLE_MESSAGE_TYPES = ['text', 'image', 'document'] as const;
export const MESSAGE_DIRECTIONS = ['inbound', 'outbound'] as const;
export const MESSAGE_SENDERS = ['ai_agent', 'human', 'lead'] as const;

// Agents (specification: "Agent" and "PATCH /agents/{id}")
export const AGENT_STATUSES = ['active', 'inactive', 'draft'] as const;
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

// Webhook events: the specification names only `lead.qualified`; the other names are the ones
// docs/service-contract.md §8 chose for the kinds it describes in prose.
export const WEBHOOK_EVENTS = [
	'lead.created',
	'lead.qualified',
	'lead.assigned',
	'appointment.booked',
	'conversation.status_changed',
	'conversation.milestone',
] as const;
/** `"*"` in a subscription's events means every event (docs/service-contract.md §7). */
export const WEBHOOK_ALL_EVENTS = '*';
export const SIGNATURE_HEADER = 'X-Service-Signature';

// Limits (specification: "Limits" and "Pagination")
export const PAGE_SIZE_MIN = 1;
export const PAGE_SIZE_MAX = 100;
export const PAGE_LIMIT_DEFAULT = 20;
export const SCORE_MIN = 0;
export const SCORE_MAX = 100;
export const RATE_LIMIT_PER_MINUTE = 1000;
export const RATE_LIMIT_WINDOW_MS = 60_000;
export const RATE_LIMIT_LIMIT_HEADER = 'X-RateLimit-Limit';
export const RATE_LIMIT_REMAINING_HEADER = 'X-RateLimit-Remaining';
export const RATE_LIMIT_RESET_HEADER = 'X-RateLimit-Reset';
export const RETRY_AFTER_HEADER = 'Retry-After';

export const E164 = /^\+[1-9]\d{1,14}$/;

/** Request bodies larger than this are refused with 413 (1 MiB). */
export const MAX_BODY_BYTES = 1_048_576;

export const DELIVERY_TIMEOUT_MS_DEFAULT = 10_000;
/** Retries after the first failure: about 1, 5 and 30 minutes (scaled by retryScale). */
export const RETRY_OFFSETS_MS = [60_000, 300_000, 1_800_000] as const;

export const ORG_ALPHA = 'org_alpha';
export const ORG_BETA = 'org_beta';
/** Third organization whose account is suspended: its key gets 403 everywhere. */
export const ORG_SUSPENDED = 'org_gamma';

export const DEFAULT_LEADS_ALPHA = 250;
export const DEFAULT_LEADS_BETA = 40;
/** Conversations are seeded only for the first leads so that large seeds stay fast. */
export const CONVERSATION_SEED_LEAD_CAP = 500;
export const DEFAULT_SEED = 20240501;

/** Seeded timestamps lie in the year before this instant (fixed, so seeds are reproducible). */
export const SEED_ANCHOR_MS = Date.UTC(2026, 0, 1);
export const YEAR_MS = 365 * 24 * 3600 * 1000;

export type LeadChannel = (typeof ALL_LEAD_CHANNELS)[number];
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export type LeadIntent = (typeof LEAD_INTENTS)[number];
export type ConversationChannel = (typeof CONVERSATION_CHANNELS)[number];
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export type MessageType = (typeof MESSAGE_TYPES)[number];
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];
export type MessageSender = (typeof MESSAGE_SENDERS)[number];
export type AgentStatus = (typeof AGENT_STATUSES)[number];
export type AgentLanguage = (typeof AGENT_LANGUAGES)[number];
export type AgentChannel = (typeof AGENT_CHANNELS)[number];
export type AgentTone = (typeof AGENT_TONES)[number];
export type EventType = (typeof WEBHOOK_EVENTS)[number];
