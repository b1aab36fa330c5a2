import {
	CONVERSATION_ID_PREFIX,
	LEAD_ID_PREFIX,
	MESSAGE_ID_PREFIX,
	type ConversationChannel,
	type ConversationStatus,
	type LeadChannel,
	type LeadIntent,
	type LeadStatus,
	type MessageSender,
	type MessageType,
} from './constants';
import type { SandboxCore } from './core';
import { iso, laterThan } from './time';
import type { AppointmentRecord, ConversationRecord, LeadRecord, MessageRecord } from './types';
import { leadEventData } from './views';

// Changes of state shared by the HTTP routes and the control interface. Each change emits the
// events it causes, so an event is never sent without the change being visible in the data.

export interface NewLead {
	organizationId: string;
	name: string;
	phone: string;
	email: string | null;
	channel: LeadChannel;
	vehicle_interest: string | null;
	notes: string | null;
	score?: number;
	intent?: LeadIntent;
	status?: LeadStatus;
	assigned_to?: string | null;
	/** Creation time (epoch ms) a channel reported; defaults to now. */
	createdMs?: number;
}

export function createLead(core: SandboxCore, input: NewLead): LeadRecord {
	const now = input.createdMs ?? core.clock.now();
	const at = iso(now);
	const lead: LeadRecord = {
		id: core.newId(LEAD_ID_PREFIX, (id) => core.store.leads.has(id)),
		organization_id: input.organizationId,
		name: input.name,
		phone: input.phone,
		email: input.email,
		channel: input.channel,
		vehicle_interest: input.vehicle_interest,
		score: input.score ?? 0,
		intent: input.intent ?? 'unknown',
		status: input.status ?? 'new',
		assigned_to: input.assigned_to ?? null,
		notes: input.notes,
		created_at: at,
		updated_at: at,
		last_activity_at: at,
		created_ms: now,
	};
	core.store.addLead(lead);
	core.emit(lead.organization_id, 'lead.created', leadEventData(lead));
	return lead;
}

export interface LeadPatch {
	status?: LeadStatus;
	assigned_to?: string | null;
	vehicle_interest?: string | null;
	notes?: string | null;
	score?: number;
	intent?: LeadIntent;
}

/** Applies supplied fields only; `null` clears. Every update moves `updated_at`. */
export function updateLead(core: SandboxCore, lead: LeadRecord, patch: LeadPatch): LeadRecord {
	const previousStatus = lead.status;
	const previousAssignee = lead.assigned_to;
	if (patch.status !== undefined) lead.status = patch.status;
	if (patch.assigned_to !== undefined) lead.assigned_to = patch.assigned_to;
	if (patch.vehicle_interest !== undefined) lead.vehicle_interest = patch.vehicle_interest;
	if (patch.notes !== undefined) lead.notes = patch.notes;
	if (patch.score !== undefined) lead.score = patch.score;
	if (patch.intent !== undefined) lead.intent = patch.intent;
	lead.updated_at = laterThan(lead.updated_at, core.clock.now());
	if (lead.status !== previousStatus) lead.last_activity_at = lead.updated_at;
	core.store.org(lead.organization_id).leads.changed();

	if (lead.status === 'qualified' && previousStatus !== 'qualified') {
		core.emit(lead.organization_id, 'lead.qualified', leadEventData(lead));
	}
	// "becomes non-null": an assignment of an unassigned lead (a reassignment is not one).
	if (lead.assigned_to !== null && previousAssignee === null) {
		core.emit(lead.organization_id, 'lead.assigned', {
			...leadEventData(lead),
			assigned_to: lead.assigned_to,
		});
	}
	return lead;
}

/** The AI qualifies a lead: always emits lead.qualified, even if it was qualified before. */
export function qualifyLead(core: SandboxCore, lead: LeadRecord, score = 85): LeadRecord {
	const wasQualified = lead.status === 'qualified';
	updateLead(core, lead, { score, intent: 'purchase_30_days', status: 'qualified' });
	lead.last_activity_at = lead.updated_at;
	if (wasQualified) core.emit(lead.organization_id, 'lead.qualified', leadEventData(lead));
	return lead;
}

export function bookAppointment(
	core: SandboxCore,
	lead: LeadRecord,
	options: { scheduled_at?: string; location?: string } = {},
): AppointmentRecord {
	const now = core.clock.now();
	const appointment: AppointmentRecord = {
		id: core.newId('appt_', (id) => core.store.appointments.some((a) => a.id === id)),
		organization_id: lead.organization_id,
		lead_id: lead.id,
		// Default: two days ahead at 10:00 UTC.
		scheduled_at:
			options.scheduled_at ??
			iso(Math.floor((now + 2 * 86_400_000) / 86_400_000) * 86_400_000 + 10 * 3_600_000),
		location: options.location ?? 'Main showroom',
		created_at: iso(now),
	};
	core.store.appointments.push(appointment);
	lead.last_activity_at = laterThan(lead.last_activity_at, now);
	lead.updated_at = laterThan(lead.updated_at, now);
	core.emit(lead.organization_id, 'appointment.booked', {
		id: appointment.id,
		lead_id: appointment.lead_id,
		scheduled_at: appointment.scheduled_at,
		location: appointment.location,
	});
	return appointment;
}

export function reachMilestone(
	core: SandboxCore,
	conversation: ConversationRecord,
	milestone: string,
): ConversationRecord {
	touchConversation(core, conversation, true);
	core.emit(conversation.organization_id, 'conversation.milestone', {
		id: conversation.id,
		lead_id: conversation.lead_id,
		milestone,
	});
	return conversation;
}

/** Emits conversation.status_changed only when the status really changes. */
export function changeConversationStatus(
	core: SandboxCore,
	conversation: ConversationRecord,
	status: ConversationStatus,
): ConversationRecord {
	const previous = conversation.status;
	if (previous === status) return conversation;
	conversation.status = status;
	touchConversation(core, conversation, false);
	core.store.org(conversation.organization_id).conversations.changed();
	core.emit(conversation.organization_id, 'conversation.status_changed', {
		id: conversation.id,
		lead_id: conversation.lead_id,
		channel: conversation.channel,
		status,
		previous_status: previous,
	});
	return conversation;
}

/**
 * The lead writes on a channel: the message joins the lead's open conversation there, or opens
 * one. An advisor can then answer in it; no event is emitted (none is named for it).
 */
export function leadWrites(
	core: SandboxCore,
	lead: LeadRecord,
	channel: ConversationChannel,
	content: string,
): ConversationRecord {
	const now = core.clock.now();
	let conversation = [...core.store.conversations.values()].find(
		(c) => c.lead_id === lead.id && c.channel === channel && c.status === 'open',
	);
	if (!conversation) {
		const at = iso(now);
		conversation = {
			id: core.newId(CONVERSATION_ID_PREFIX, (id) => core.store.conversations.has(id)),
			organization_id: lead.organization_id,
			lead_id: lead.id,
			channel,
			status: 'open',
			created_at: at,
			updated_at: at,
			last_message_at: at,
			ai_summary: '',
			messages: [],
			transcript: null,
			created_ms: now,
		};
		core.store.conversations.set(conversation.id, conversation);
		core.store.org(lead.organization_id).conversations.insert(conversation);
	}
	appendMessage(core, conversation, { content, type: 'text', sent_by: 'lead' });
	return conversation;
}

/** A human advisor's message: outbound, sent_by human; optionally pauses the AI. */
export function postHumanMessage(
	core: SandboxCore,
	conversation: ConversationRecord,
	input: { content: string; type: MessageType; pause_ai: boolean },
): MessageRecord {
	const message = appendMessage(core, conversation, { ...input, sent_by: 'human' });
	if (input.pause_ai) core.store.pausedConversations.add(conversation.id);
	return message;
}

/** A message in a conversation, now: the AI's turn, the lead's reply or an advisor's message. */
export function appendMessage(
	core: SandboxCore,
	conversation: ConversationRecord,
	input: { content: string; type: MessageType; sent_by: MessageSender },
): MessageRecord {
	const at = laterThan(conversation.last_message_at, core.clock.now());
	const message: MessageRecord = {
		id: core.newId(MESSAGE_ID_PREFIX, () => false),
		conversation_id: conversation.id,
		direction: input.sent_by === 'lead' ? 'inbound' : 'outbound',
		type: input.type,
		content: input.content,
		sent_by: input.sent_by,
		created_at: at,
	};
	if (conversation.channel === 'phone') {
		// A call has a transcript instead of messages: the words join it.
		const speaker = input.sent_by === 'lead' ? 'Lead' : 'Agent';
		const line = `[${at}] ${speaker}: ${input.content}`;
		conversation.transcript = conversation.transcript
			? `${conversation.transcript}\n${line}`
			: line;
	}
	conversation.messages.push(message);
	conversation.last_message_at = at;
	conversation.updated_at = laterThan(conversation.updated_at, Date.parse(at));
	const lead = core.store.leads.get(conversation.lead_id);
	if (lead) lead.last_activity_at = laterThan(lead.last_activity_at, Date.parse(at));
	return message;
}

function touchConversation(
	core: SandboxCore,
	conversation: ConversationRecord,
	isEvent: boolean,
): void {
	const now = core.clock.now();
	if (isEvent) conversation.last_message_at = laterThan(conversation.last_message_at, now);
	conversation.updated_at = laterThan(conversation.updated_at, now);
	const lead = core.store.leads.get(conversation.lead_id);
	if (lead) lead.last_activity_at = laterThan(lead.last_activity_at, now);
}
