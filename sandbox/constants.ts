// The sandbox keeps its own copies of every enum and limit of the specification: it is an
// independent model of the service, so a mistake in the package cannot leak into it.

export const LEAD_CHANNELS = [
	'chat_app',
	'social_a',
	'social_b',
	'marketplace',
	'web_form',
	'email',
	'phone',
] as const;
/** Channel of a lead created through the interface without a channel. */
export const API_CHANNEL = 'api';
export const ALL_LEAD_CHANNELS = [...LEAD_CHANNELS, API_CHANNEL] as const;
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

export const CONVERSATION_CHANNELS = [
	'chat_app',
	'social_a',
	'social_b',
	'email',
	'phone',
] as const;
export const CONVERSATION_STATUSES = ['open', 'closed', 'transferred'] as const;

export const MESSAGE_DIRECTIONS = ['inbound', 'outbound'] as const;
export const MESSAGE_TYPES = ['text', 'audio', 'image', 'document'] as const;
export const POSTABLE_MESSAGE_TYPES = ['text', 'image', 'document'] as const;
export const MESSAGE_SENDERS = ['ai_agent', 'human', 'lead'] as const;

export const AGENT_STATUSES = ['active', 'inactive', 'draft'] as const;
export const AGENT_PATCHABLE_STATUSES = ['active', 'inactive'] as const;
export const AGENT_LANGUAGES = ['es-AR', 'es-MX', 'es-CR', 'es-CO', 'pt-BR', 'en-US'] as const;
export const AGENT_CHANNELS = [
	'chat_app',
	'social_a',
	'social_b',
	'web',
	'email',
	'phone',
] as const;
export const AGENT_TONES = ['formal', 'friendly', 'professional'] as const;

export const EVENT_TYPES = [
	'lead.created',
	'lead.qualified',
	'lead.assigned',
	'appointment.booked',
	'conversation.status_changed',
	'conversation.milestone',
] as const;
export const ALL_EVENTS = '*';

export const E164 = /^\+[1-9]\d{1,14}$/;

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MIN = 1;
export const PAGE_LIMIT_MAX = 100;
export const SCORE_MIN = 0;
export const SCORE_MAX = 100;

/** Request bodies larger than this are refused with 413 (1 MiB). */
export const MAX_BODY_BYTES = 1_048_576;

export const RATE_LIMIT_DEFAULT = 1000;
export const RATE_WINDOW_MS_DEFAULT = 60_000;

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
export type EventType = (typeof EVENT_TYPES)[number];
