import {
	appendMessage,
	bookAppointment,
	changeConversationStatus,
	createLead,
	leadWrites,
	qualifyLead,
	reachMilestone,
} from './actions';
import {
	ALL_LEAD_CHANNELS,
	CONVERSATION_CHANNELS,
	CONVERSATION_STATUSES,
	E164,
	LEAD_INTENTS,
	LEAD_STATUSES,
	MESSAGE_SENDERS,
	ORG_ALPHA,
	type ConversationChannel,
	type ConversationStatus,
	type LeadChannel,
	type LeadIntent,
	type LeadStatus,
	type MessageSender,
} from './constants';
import type {
	ChannelLeadFields,
	FaultSpec,
	SandboxControl,
	SandboxState,
	StoredAgent,
	StoredConversation,
	StoredLead,
} from './contract';
import { MAX_ADVANCE_MS } from './clock';
import type { SandboxCore } from './core';
import type { AgentRecord, ConversationRecord, LeadRecord } from './types';
import { iso } from './time';
import { parseIso } from './validation';

/** A control call that cannot be carried out; `status` is used by the HTTP control interface. */
export class ControlError extends Error {
	constructor(
		message: string,
		readonly status = 400,
	) {
		super(message);
	}
}

function storedLead(lead: LeadRecord): StoredLead {
	const copy: Partial<LeadRecord> = { ...lead };
	delete copy.created_ms;
	return copy as StoredLead;
}

function storedConversation(conversation: ConversationRecord): StoredConversation {
	const copy: Partial<ConversationRecord> = {
		...conversation,
		messages: conversation.messages.map((message) => ({ ...message })),
	};
	delete copy.created_ms;
	return copy as StoredConversation;
}

function storedAgent(agent: AgentRecord): StoredAgent {
	const copy: Partial<AgentRecord> = {
		...agent,
		channels: [...agent.channels],
		configuration: JSON.parse(JSON.stringify(agent.configuration)),
	};
	delete copy.created_ms;
	return copy as StoredAgent;
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
	if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
		throw new ControlError(`${field}: must be one of ${allowed.join(', ')}`);
	}
	return value as T;
}

function integerIn(field: string, value: unknown, min: number, max: number): number {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
		throw new ControlError(`${field}: must be an integer from ${min} to ${max}`);
	}
	return value;
}

/** In-process control of a running sandbox; the HTTP control interface maps onto it. */
export function createControl(core: SandboxCore): SandboxControl {
	const lead = (id: string) => {
		const found = core.store.leads.get(id);
		if (!found) throw new ControlError(`Lead ${id} not found`, 404);
		return found;
	};
	const conversation = (id: string) => {
		const found = core.store.conversations.get(id);
		if (!found) throw new ControlError(`Conversation ${id} not found`, 404);
		return found;
	};
	let channelLeads = 0;
	const clockState = () => ({ now: iso(core.clock.now()), offsetMs: core.clock.offset });

	return {
		reset(opts = {}) {
			if (opts.leads !== undefined) integerIn('leads', opts.leads, 0, 10_000_000);
			if (opts.seed !== undefined) integerIn('seed', opts.seed, 0, 2 ** 32 - 1);
			core.reset(opts);
		},
		setRateLimit(limit, windowMs) {
			integerIn('limit', limit, 0, Number.MAX_SAFE_INTEGER);
			integerIn('windowMs', windowMs, 1, Number.MAX_SAFE_INTEGER);
			core.rateLimiter.configure(limit, windowMs);
		},
		setOptions(options) {
			if (
				options.retryScale !== undefined &&
				!(typeof options.retryScale === 'number' && options.retryScale >= 0)
			) {
				throw new ControlError('retryScale: must be a number >= 0');
			}
			if (options.deliveryTimeoutMs !== undefined) {
				integerIn('deliveryTimeoutMs', options.deliveryTimeoutMs, 1, Number.MAX_SAFE_INTEGER);
			}
			if (
				options.allowHttpWebhooks !== undefined &&
				typeof options.allowHttpWebhooks !== 'boolean'
			) {
				throw new ControlError('allowHttpWebhooks: must be true or false');
			}
			core.setOptions(options);
		},
		options: () => {
			const { limit, windowMs } = core.rateLimiter.settings;
			return { ...core.options, rateLimit: limit, windowMs };
		},
		revokeKey(key) {
			if (!core.keys.revoke(key)) throw new ControlError('key: not a key of this sandbox', 404);
		},
		injectFaults(spec: FaultSpec) {
			try {
				core.faults.add(spec);
			} catch (error) {
				throw new ControlError((error as Error).message);
			}
		},
		clearFaults: () => core.faults.clear(),
		faults: () => core.faults.list(),
		requests: () => core.requestLog.map((entry) => ({ ...entry, query: { ...entry.query } })),
		clearRequests() {
			core.requestLog = [];
		},
		deliveries: () => core.dispatcher.entries(),
		clearDeliveries: () => core.dispatcher.clearLog(),
		webhooks: () =>
			[...core.store.webhooks.values()].map((webhook) => ({
				...webhook,
				events: [...webhook.events],
			})),
		qualifyLead(leadId, score = 85) {
			integerIn('score', score, 0, 100);
			return storedLead(qualifyLead(core, lead(leadId), score));
		},
		bookAppointment(leadId, opts = {}) {
			if (opts.scheduled_at !== undefined && parseIso(opts.scheduled_at) === undefined) {
				throw new ControlError('scheduled_at: must be an ISO 8601 date-time');
			}
			return { ...bookAppointment(core, lead(leadId), opts) };
		},
		reachMilestone(conversationId, milestone) {
			if (typeof milestone !== 'string' || milestone.trim() === '') {
				throw new ControlError('milestone: must be a non-empty string');
			}
			return storedConversation(reachMilestone(core, conversation(conversationId), milestone));
		},
		changeConversationStatus(conversationId, status) {
			const next = oneOf<ConversationStatus>('status', status, CONVERSATION_STATUSES);
			return storedConversation(changeConversationStatus(core, conversation(conversationId), next));
		},
		leadWrites(leadId, fields = {}) {
			const target = lead(leadId);
			const own = (CONVERSATION_CHANNELS as readonly string[]).includes(target.channel)
				? target.channel
				: 'chat_app';
			const channel = oneOf<ConversationChannel>(
				'channel',
				fields.channel ?? own,
				CONVERSATION_CHANNELS,
			);
			const content = fields.content ?? 'Hello, is this car still available?';
			if (typeof content !== 'string' || content.trim() === '') {
				throw new ControlError('content: must be a non-empty string');
			}
			return storedConversation(leadWrites(core, target, channel, content));
		},
		addMessage(conversationId, message) {
			const sender = oneOf<MessageSender>('sent_by', message?.sent_by, MESSAGE_SENDERS);
			const content = message.content ?? `A ${sender} message`;
			if (typeof content !== 'string' || content === '') {
				throw new ControlError('content: must be a non-empty string');
			}
			const conversationRecord = conversation(conversationId);
			const added = appendMessage(core, conversationRecord, {
				content,
				type: 'text',
				sent_by: sender,
			});
			return { ...added };
		},
		createChannelLead(fields: ChannelLeadFields = {}) {
			channelLeads++;
			const organizationId = fields.organization_id ?? ORG_ALPHA;
			if (!core.store.organizations.has(organizationId)) {
				throw new ControlError(`organization_id: unknown organization ${organizationId}`);
			}
			const phone = fields.phone ?? `+5491100${String(channelLeads).padStart(6, '0')}`;
			if (!E164.test(phone)) throw new ControlError('phone: must be in E.164 format');
			return storedLead(
				createLead(core, {
					organizationId,
					name: fields.name ?? `Channel Lead ${channelLeads}`,
					phone,
					email: fields.email ?? null,
					channel: oneOf<LeadChannel>('channel', fields.channel ?? 'chat_app', ALL_LEAD_CHANNELS),
					vehicle_interest: fields.vehicle_interest ?? null,
					notes: fields.notes ?? null,
					score: fields.score === undefined ? undefined : integerIn('score', fields.score, 0, 100),
					intent:
						fields.intent === undefined
							? undefined
							: oneOf<LeadIntent>('intent', fields.intent, LEAD_INTENTS),
					status:
						fields.status === undefined
							? undefined
							: oneOf<LeadStatus>('status', fields.status, LEAD_STATUSES),
					assigned_to: fields.assigned_to ?? null,
					createdMs: fields.created_at === undefined ? undefined : createdMsOf(fields.created_at),
				}),
			);
		},
		async deliverRaw(subscriptionId, body, headers) {
			const webhook = core.store.webhooks.get(subscriptionId);
			if (!webhook) throw new ControlError(`Webhook subscription ${subscriptionId} not found`, 404);
			return core.dispatcher.deliverRaw(
				webhook,
				Buffer.isBuffer(body) ? body : Buffer.from(body),
				headers,
			);
		},
		state(): SandboxState {
			const store = core.store;
			return {
				organizations: [...store.organizations.values()].map((org) => ({ ...org.record })),
				leads: [...store.leads.values()].map(storedLead),
				conversations: [...store.conversations.values()].map(storedConversation),
				agents: [...store.agents.values()].map(storedAgent),
				webhooks: [...store.webhooks.values()].map((webhook) => ({
					...webhook,
					events: [...webhook.events],
				})),
				appointments: store.appointments.map((appointment) => ({ ...appointment })),
				pausedConversations: [...store.pausedConversations],
			};
		},
		whenDeliveriesSettled: () => core.dispatcher.whenSettled(),
		keys: () => ({ ...core.keys.keys }),
		advanceClock(ms) {
			core.clock.advance(integerIn('ms', ms, 0, MAX_ADVANCE_MS));
			return clockState();
		},
		clock: () => clockState(),
	};
}

function createdMsOf(value: unknown): number {
	const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	if (Number.isNaN(ms)) throw new ControlError('created_at: must be an ISO 8601 date-time');
	return ms;
}
