// The programmatic contract of the sandbox: other test suites and scripts code against these
// names, so they change only together with sandbox/README.md.

import type {
	AgentRecord,
	AppointmentRecord,
	ConversationRecord,
	KeyRole,
	LeadRecord,
	MessageRecord,
	OrganizationRecord,
	WebhookRecord,
} from './types';

export interface SandboxOptions {
	/** 0 = any free port (default). */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Number of seeded leads of org_alpha (default 250; org_beta always gets 40). */
	leads?: number;
	/** PRNG seed of the data and of the API keys. */
	seed?: number;
	/** Requests per window per key (default 1000). */
	rateLimit?: number;
	/** Length of a fixed rate-limit window in ms (default 60000). */
	windowMs?: number;
	/** Multiplies the retry schedule of failed deliveries (1, 5, 30 minutes); default 1. */
	retryScale?: number;
	/** Accept http:// subscriber URLs (the specification requires https://). */
	allowHttpWebhooks?: boolean;
	/** A delivery fails when no response status arrives within this time (default 10000). */
	deliveryTimeoutMs?: number;
}

export interface SandboxKeys {
	/** Full access, org_alpha. */
	full: string;
	/** Revoked key of org_alpha: 401. */
	revoked: string;
	/** Scope-restricted key of org_alpha: GET only, writes get 403. */
	readOnly: string;
	/** Key of an organization whose account is suspended: 403 everywhere. */
	suspended: string;
	/** Full access key of org_beta. */
	otherOrganization: string;
}

export interface RunningSandbox {
	/** http://127.0.0.1:PORT/v1 */
	baseUrl: string;
	/** http://127.0.0.1:PORT/control */
	controlUrl: string;
	port: number;
	keys: SandboxKeys;
	control: SandboxControl;
	/** Stops the server, cancels pending retries and timers, closes keep-alive sockets. */
	close(): Promise<void>;
}

export type FaultKind = 'status' | 'delay' | 'drop' | 'dropAfterProcessing' | 'badCursor';

export interface FaultSpec {
	kind: FaultKind;
	/** Applies to the next N matching requests (default 1). */
	count?: number;
	/** Instead of count: each matching request with this probability, until cleared. */
	probability?: number;
	/** For 'status' (default 500). */
	status?: number;
	/** For 'delay': answer this long after processing (default 1000). */
	delayMs?: number;
	/** Only requests with this method (any when omitted). */
	method?: string;
	/** Only requests whose path starts with this, e.g. '/v1/leads'. */
	pathPrefix?: string;
}

export interface RequestLogEntry {
	method: string;
	/** Without the query string, e.g. /v1/leads. */
	path: string;
	query: Record<string, string>;
	/** 0 when the connection was dropped without an answer. */
	status: number;
	/** Role of the key presented, when it is a sandbox key. */
	key?: KeyRole;
	/** Arrival time, ms since the epoch. */
	at: number;
}

export interface DeliveryLogEntry {
	/** Same for every attempt of one delivery (one event to one subscription). */
	deliveryId: string;
	subscriptionId: string;
	url: string;
	/** Event type; 'raw' for deliverRaw. */
	event: string;
	/** 1 for the first attempt, 2 to 4 for the retries. */
	attempt: number;
	/** HTTP status of the receiver's answer, when one arrived. */
	status?: number;
	/** Why the attempt failed without a status (time-out, connection refused...). */
	error?: string;
	ok: boolean;
	/** Start of the attempt, ms since the epoch. */
	at: number;
	/** Exact body sent (UTF-8). */
	body: string;
	/** X-Service-Signature header sent. */
	signature: string;
}

export interface StoredLead extends Omit<LeadRecord, 'created_ms'> {}
export interface StoredConversation extends Omit<ConversationRecord, 'created_ms'> {}
export interface StoredAgent extends Omit<AgentRecord, 'created_ms'> {}

export interface SandboxState {
	organizations: OrganizationRecord[];
	/** Every lead of every organization, including `notes`. */
	leads: StoredLead[];
	/** Every conversation with its messages or transcript. */
	conversations: StoredConversation[];
	agents: StoredAgent[];
	webhooks: WebhookRecord[];
	appointments: AppointmentRecord[];
	/** Conversations whose AI was paused by a human message with pause_ai. */
	pausedConversations: string[];
}

export interface ChannelLeadFields {
	name?: string;
	phone?: string;
	email?: string | null;
	channel?: string;
	vehicle_interest?: string | null;
	notes?: string | null;
	score?: number;
	intent?: string;
	status?: string;
	assigned_to?: string | null;
	/** Default org_alpha. */
	organization_id?: string;
	/**
	 * ISO 8601 creation time (default: now), e.g. the millisecond of an earlier lead, to
	 * reproduce two leads created at the same instant.
	 */
	created_at?: string;
}

export interface AppointmentOptions {
	scheduled_at?: string;
	location?: string;
}

export interface RawDeliveryResult {
	status?: number;
	error?: string;
	ok: boolean;
}

/** Options that can change while the sandbox runs. */
export interface RuntimeOptions {
	retryScale?: number;
	allowHttpWebhooks?: boolean;
	deliveryTimeoutMs?: number;
}

export interface SandboxControl {
	/** Reseed and clear logs, subscriptions, faults, rate-limit counters and key revocations. */
	reset(opts?: { leads?: number; seed?: number }): void;
	setRateLimit(limit: number, windowMs: number): void;
	/** retryScale, allowHttpWebhooks, deliveryTimeoutMs at run time. */
	setOptions(options: RuntimeOptions): void;
	/** Current options (port, host, leads, seed, rateLimit, windowMs, retryScale...). */
	options(): Required<SandboxOptions>;
	revokeKey(key: string): void;
	injectFaults(spec: FaultSpec): void;
	clearFaults(): void;
	faults(): FaultSpec[];
	requests(): RequestLogEntry[];
	clearRequests(): void;
	deliveries(): DeliveryLogEntry[];
	clearDeliveries(): void;
	webhooks(): WebhookRecord[];
	/** AI qualifies the lead: score (default 85), intent purchase_30_days, status qualified. */
	qualifyLead(leadId: string, score?: number): StoredLead;
	bookAppointment(leadId: string, opts?: AppointmentOptions): AppointmentRecord;
	reachMilestone(conversationId: string, milestone: string): StoredConversation;
	changeConversationStatus(conversationId: string, status: string): StoredConversation;
	/** The lead writes (default on its own channel, else chat_app): its open conversation there, or a new one. */
	leadWrites(leadId: string, fields?: { channel?: string; content?: string }): StoredConversation;
	/**
	 * A message in a conversation, dated now on the service's clock: `ai_agent` (the AI's turn),
	 * `lead` (the lead's reply, inbound) or `human`. Any conversation status; content defaults.
	 */
	addMessage(conversationId: string, message: { sent_by: string; content?: string }): MessageRecord;
	createChannelLead(fields?: ChannelLeadFields): StoredLead;
	/** Sends arbitrary bytes to a subscriber, signed with its secret unless headers override. */
	deliverRaw(
		subscriptionId: string,
		body: string | Buffer,
		headers?: Record<string, string>,
	): Promise<RawDeliveryResult>;
	state(): SandboxState;
	whenDeliveriesSettled(): Promise<void>;
	keys(): SandboxKeys;
	/**
	 * Moves the service's clock forward by `ms` (an integer >= 0): the Date header and every
	 * time the sandbox writes from then on. Rate-limit windows stay on real time.
	 */
	advanceClock(ms: number): SandboxClockState;
	/** The service's time now and how far it is ahead of real time. */
	clock(): SandboxClockState;
}

export interface SandboxClockState {
	/** ISO 8601, the service's time. */
	now: string;
	offsetMs: number;
}
