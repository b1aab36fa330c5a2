// One lead, conversation or agent of the seed, drawn from the organization's generator. The first
// records of an organization are forced so that every enum value and the null cases appear.

import {
	AGENT_CHANNELS,
	AGENT_LANGUAGES,
	AGENT_STATUSES,
	AGENT_TONES,
	ALL_LEAD_CHANNELS,
	CONVERSATION_CHANNELS,
	CONVERSATION_ID_PREFIX,
	LEAD_INTENTS,
	LEAD_STATUSES,
	MESSAGE_ID_PREFIX,
	SEED_ANCHOR_MS,
	YEAR_MS,
	type AgentChannel,
	type ConversationChannel,
	type ConversationStatus,
	type LeadIntent,
	type LeadStatus,
} from '../constants';
import type { Prng } from '../prng';
import { iso } from '../time';
import type { AgentRecord, ConversationRecord, LeadRecord, MessageRecord } from '../types';
import {
	AGENT_NAMES,
	ALLOWED_TOPICS,
	ASCII_FIRST,
	ASCII_LAST,
	EMAIL_DOMAINS,
	FIRST_NAMES,
	HANDOFF_TRIGGERS,
	LAST_NAMES,
	NOTES,
	PHONE_PLANS,
	STATUS_WEIGHTS,
	VEHICLES,
	dialogue,
	summary,
} from './words';

// Aliases of globals used in the hot seeding loop (global lookups are slow inside vm contexts,
// e.g. under jest).
const { floor, min, max } = Math;

export type UniqueId = (prefix: string, length: number) => string;

export function makeLead(
	rng: Prng,
	index: number,
	organizationId: string,
	advisors: string[],
	id: string,
): LeadRecord {
	const createdMs = SEED_ANCHOR_MS - 1 - floor(rng.next() * YEAR_MS);
	const firstIndex = rng.int(0, FIRST_NAMES.length - 1);
	const lastIndex = rng.int(0, LAST_NAMES.length - 1);
	const first = FIRST_NAMES[firstIndex];
	const last = LAST_NAMES[lastIndex];
	const plan = rng.pick(PHONE_PLANS);
	const phone = plan.prefix + ('' + rng.int(0, plan.limit - 1)).padStart(plan.digits, '0');

	// The first leads are forced so that every enum value and both null cases appear.
	const channel =
		index < ALL_LEAD_CHANNELS.length ? ALL_LEAD_CHANNELS[index] : rng.pick(ALL_LEAD_CHANNELS);
	const status =
		index < LEAD_STATUSES.length ? LEAD_STATUSES[index] : weighted(rng, STATUS_WEIGHTS);
	const intent: LeadIntent =
		index < LEAD_INTENTS.length ? LEAD_INTENTS[index] : pickIntent(rng, status);
	let score = scoreFor(rng, status);
	if (index === 6) score = 0;
	if (index === 7) score = 100;

	let assigned: string | null = null;
	if (status === 'assigned') assigned = rng.pick(advisors);
	else if (status !== 'new' && rng.chance(status === 'lost' ? 0.1 : 0.3))
		assigned = rng.pick(advisors);

	const hasEmail = index === 1 ? false : index === 2 ? true : rng.chance(0.75);
	const email = hasEmail
		? ASCII_FIRST[firstIndex] +
			'.' +
			ASCII_LAST[lastIndex] +
			rng.int(1, 999) +
			'@' +
			rng.pick(EMAIL_DOMAINS)
		: null;
	const hasVehicle = index === 3 ? false : index === 4 ? true : rng.chance(0.7);

	const span = min(60 * 86_400_000, SEED_ANCHOR_MS - createdMs - 1);
	const lastActivityMs = createdMs + floor(rng.next() * span);
	const updatedMs =
		lastActivityMs + floor(rng.next() * (SEED_ANCHOR_MS - lastActivityMs - 1) * 0.1);
	return {
		id,
		organization_id: organizationId,
		name: first + ' ' + last,
		phone,
		email,
		channel,
		vehicle_interest: hasVehicle ? rng.pick(VEHICLES) : null,
		score,
		intent,
		status,
		assigned_to: assigned,
		notes: rng.chance(0.4) ? rng.pick(NOTES) : null,
		created_at: iso(createdMs),
		updated_at: iso(updatedMs),
		last_activity_at: iso(lastActivityMs),
		created_ms: createdMs,
	};
}

export function makeConversation(
	rng: Prng,
	lead: LeadRecord,
	forced: [ConversationChannel, ConversationStatus] | undefined,
	uniqueId: UniqueId,
): ConversationRecord {
	const leadChannel = (CONVERSATION_CHANNELS as readonly string[]).includes(lead.channel)
		? (lead.channel as ConversationChannel)
		: undefined;
	const channel =
		forced?.[0] ?? (leadChannel && rng.chance(0.7) ? leadChannel : rng.pick(CONVERSATION_CHANNELS));
	const status =
		forced?.[1] ??
		weighted<ConversationStatus>(rng, [
			['open', 0.45],
			['closed', 0.35],
			['transferred', 0.2],
		]);
	const id = uniqueId(CONVERSATION_ID_PREFIX, 16);
	// Starts after the lead was created, within two days, and (nearly always) before the anchor.
	const room = max(0, min(2 * 86_400_000, SEED_ANCHOR_MS - lead.created_ms - 3 * 3_600_000));
	const startMs = lead.created_ms + 1 + floor(rng.next() * room);
	const vehicle = lead.vehicle_interest ?? 'a vehicle';
	const script = dialogue(rng, lead.name.split(' ')[0], vehicle);

	let t = startMs;
	const turns = script.map((turn) => {
		t += rng.int(20, 900) * 1000;
		return { ...turn, ms: t };
	});
	const lastMs = t;

	let messages: MessageRecord[] = [];
	let transcript: string | null = null;
	if (channel === 'phone') {
		transcript = [
			`Call started ${iso(startMs)} (${lead.phone})`,
			...turns.map((turn) => `[${iso(turn.ms)}] ${turn.lead ? 'Lead' : 'Agent'}: ${turn.text}`),
			`Call ended ${iso(lastMs + 5000)}`,
		].join('\n');
	} else {
		messages = turns.map((turn, i) => {
			// Some inbound messages are media (voice notes, photos, documents): content is a URL.
			const media =
				turn.lead && i > 0 && rng.chance(0.15)
					? rng.pick(['audio', 'image', 'document'] as const)
					: undefined;
			const humanTurn = !turn.lead && status === 'transferred' && i === turns.length - 1;
			return {
				id: uniqueId(MESSAGE_ID_PREFIX, 16),
				conversation_id: id,
				direction: turn.lead ? 'inbound' : 'outbound',
				type: media ?? 'text',
				content: media ? `https://media.example.com/${id}/${i}.${extension(media)}` : turn.text,
				sent_by: turn.lead ? 'lead' : humanTurn ? 'human' : 'ai_agent',
				created_at: iso(turn.ms),
			};
		});
	}

	const lastIso = iso(lastMs);
	if (lastIso > lead.last_activity_at) lead.last_activity_at = lastIso;
	if (lead.last_activity_at > lead.updated_at) lead.updated_at = lead.last_activity_at;
	return {
		id,
		organization_id: lead.organization_id,
		lead_id: lead.id,
		channel,
		status,
		created_at: iso(startMs),
		updated_at: iso(lastMs + (status === 'open' ? 0 : 60_000)),
		last_message_at: lastIso,
		ai_summary: summary(rng, vehicle, status),
		messages,
		transcript,
		created_ms: startMs,
	};
}

export function makeAgent(
	rng: Prng,
	index: number,
	organizationId: string,
	uniqueId: UniqueId,
): AgentRecord {
	const createdMs = SEED_ANCHOR_MS - 1 - floor(rng.next() * YEAR_MS);
	const updatedMs = createdMs + floor(rng.next() * (SEED_ANCHOR_MS - createdMs - 1));
	const language = AGENT_LANGUAGES[index % AGENT_LANGUAGES.length];
	const channels = subset(rng, AGENT_CHANNELS, 1);
	const name = AGENT_NAMES[index % AGENT_NAMES.length];
	return {
		id: uniqueId('agent_', 12),
		organization_id: organizationId,
		name: `${name}, sales assistant (${language})`,
		status: AGENT_STATUSES[index % AGENT_STATUSES.length],
		language,
		channels,
		created_at: iso(createdMs),
		updated_at: iso(updatedMs),
		configuration: {
			tone: rng.pick(AGENT_TONES),
			handoff_triggers: subset(rng, HANDOFF_TRIGGERS, 1),
			allowed_topics: subset(rng, ALLOWED_TOPICS, 2),
			follow_up_cadence: {
				max_follow_ups: rng.int(0, 5),
				interval_days: rng.int(1, 7),
				channel: rng.pick(channels) as AgentChannel,
			},
		},
		created_ms: createdMs,
	};
}

function scoreFor(rng: Prng, status: LeadStatus): number {
	switch (status) {
		case 'new':
			return rng.chance(0.5) ? 0 : rng.int(0, 30);
		case 'qualified':
		case 'assigned':
			return rng.int(60, 100);
		case 'lost':
			return rng.int(0, 40);
		default:
			return rng.int(0, 100);
	}
}

function pickIntent(rng: Prng, status: LeadStatus): LeadIntent {
	if (status === 'new') return rng.chance(0.7) ? 'unknown' : rng.pick(LEAD_INTENTS);
	if (status === 'qualified' || status === 'assigned') {
		return rng.chance(0.7) ? 'purchase_30_days' : 'purchase_90_days';
	}
	return rng.pick(LEAD_INTENTS);
}

function weighted<T>(rng: Prng, table: Array<[T, number]>): T {
	let r = rng.next();
	for (const [value, weight] of table) {
		if (r < weight) return value;
		r -= weight;
	}
	return table[table.length - 1][0];
}

function subset<T>(rng: Prng, items: readonly T[], min: number): T[] {
	const chosen = items.filter(() => rng.chance(0.5));
	for (const item of items) {
		if (chosen.length >= min) break;
		if (!chosen.includes(item)) chosen.push(item);
	}
	return items.filter((item) => chosen.includes(item));
}

function extension(type: 'audio' | 'image' | 'document'): string {
	return type === 'audio' ? 'ogg' : type === 'image' ? 'jpg' : 'pdf';
}
