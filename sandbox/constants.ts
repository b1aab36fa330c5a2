// The service's vocabulary (enums, limits, headers of the specification) is written once, in
// nodes/shared/constants.ts, and the sandbox takes it from there: the sandbox may import from
// nodes/shared, never the reverse (what ships cannot depend on the simulator). What follows the
// re-export is the sandbox's own: what the service does that the nodes never name (its own
// declarations, such as LeadChannel with the interface's `api`, take precedence over the re-export).

import { LEAD_API_CHANNEL, LEAD_CHANNELS, MESSAGE_TYPES } from '../nodes/shared/constants';
import type {
	AGENT_CHANNELS,
	AGENT_LANGUAGES,
	AGENT_STATUSES,
	AGENT_TONES,
	CONVERSATION_CHANNELS,
	CONVERSATION_STATUSES,
	LEAD_INTENTS,
	LEAD_STATUSES,
	WEBHOOK_EVENTS,
} from '../nodes/shared/constants';

export * from '../nodes/shared/constants';

/** Every channel a stored lead can have: those a lead is created with, plus the interface's own. */
export const ALL_LEAD_CHANNELS = [...LEAD_CHANNELS, LEAD_API_CHANNEL] as const;

export const MESSAGE_DIRECTIONS = ['inbound', 'outbound'] as const;
export const MESSAGE_SENDERS = ['ai_agent', 'human', 'lead'] as const;

export const E164 = /^\+[1-9]\d{1,14}$/;

export const PAGE_LIMIT_DEFAULT = 20;

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
