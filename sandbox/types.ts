import type {
	AgentChannel,
	AgentLanguage,
	AgentStatus,
	AgentTone,
	ConversationChannel,
	ConversationStatus,
	LeadChannel,
	LeadIntent,
	LeadStatus,
	MessageDirection,
	MessageSender,
	MessageType,
} from './constants';

// Stored records use the wire names of the specification so that views only pick fields.
// `created_ms` is the sort key of the kept-sorted collections.

export interface LeadRecord {
	id: string;
	organization_id: string;
	name: string;
	phone: string;
	email: string | null;
	channel: LeadChannel;
	vehicle_interest: string | null;
	score: number;
	intent: LeadIntent;
	status: LeadStatus;
	assigned_to: string | null;
	notes: string | null;
	created_at: string;
	updated_at: string;
	last_activity_at: string;
	created_ms: number;
}

export interface MessageRecord {
	id: string;
	conversation_id: string;
	direction: MessageDirection;
	type: MessageType;
	content: string;
	sent_by: MessageSender;
	created_at: string;
}

export interface ConversationRecord {
	id: string;
	organization_id: string;
	lead_id: string;
	channel: ConversationChannel;
	status: ConversationStatus;
	created_at: string;
	updated_at: string;
	last_message_at: string;
	ai_summary: string;
	/** Non-phone conversations. */
	messages: MessageRecord[];
	/** Phone conversations only: the call transcript shown instead of `messages`. */
	transcript: string | null;
	created_ms: number;
}

export interface AgentConfiguration {
	tone: AgentTone;
	handoff_triggers: string[];
	allowed_topics: string[];
	follow_up_cadence: {
		max_follow_ups: number;
		interval_days: number;
		channel: AgentChannel;
	};
}

export interface AgentRecord {
	id: string;
	organization_id: string;
	name: string;
	status: AgentStatus;
	language: AgentLanguage;
	channels: AgentChannel[];
	created_at: string;
	updated_at: string;
	configuration: AgentConfiguration;
	created_ms: number;
}

export interface WebhookRecord {
	id: string;
	organization_id: string;
	url: string;
	events: string[];
	description: string | null;
	secret: string;
	created_at: string;
}

export interface AppointmentRecord {
	id: string;
	organization_id: string;
	lead_id: string;
	scheduled_at: string;
	location: string;
	created_at: string;
}

export interface OrganizationRecord {
	id: string;
	name: string;
	suspended: boolean;
}

export type KeyRole = 'full' | 'revoked' | 'readOnly' | 'suspended' | 'otherOrganization';
