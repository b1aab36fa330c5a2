import {
	AGENT_CHANNELS,
	AGENT_LANGUAGES,
	AGENT_STATUSES,
	AGENT_TONES,
	ALL_LEAD_CHANNELS,
	CONVERSATION_CHANNELS,
	CONVERSATION_SEED_LEAD_CAP,
	CONVERSATION_STATUSES,
	DEFAULT_LEADS_BETA,
	LEAD_INTENTS,
	LEAD_STATUSES,
	ORG_ALPHA,
	ORG_BETA,
	ORG_SUSPENDED,
	SEED_ANCHOR_MS,
	YEAR_MS,
	type AgentChannel,
	type ConversationChannel,
	type ConversationStatus,
	type LeadIntent,
	type LeadStatus,
} from './constants';
import { Prng } from './prng';
import { Store } from './store';
import { iso } from './time';
import type { AgentRecord, ConversationRecord, LeadRecord, MessageRecord } from './types';

// Aliases of globals used in the hot seeding loop (global lookups are slow inside vm contexts,
// e.g. under jest).
const { floor, min, max, imul } = Math;

// Deterministic seed data: the same seed and size always give the same records, with every
// channel, status, intent, language and the null cases represented in org_alpha.

const FIRST_NAMES = [
	'Sofía',
	'Mateo',
	'Valentina',
	'Santiago',
	'Camila',
	'Lucas',
	'Isabella',
	'Benjamín',
	'Martina',
	'Thiago',
	'Lucía',
	'Joaquín',
	'Mariana',
	'Gabriel',
	'Ana',
	'Diego',
	'Beatriz',
	'Rafael',
	'Emily',
	'James',
	'Olivia',
	'Daniel',
	'Paula',
	'Andrés',
	'Fernanda',
	'João',
];
const LAST_NAMES = [
	'García',
	'Rodríguez',
	'Fernández',
	'López',
	'Martínez',
	'González',
	'Pérez',
	'Sánchez',
	'Romero',
	'Silva',
	'Souza',
	'Oliveira',
	'Castro',
	'Vargas',
	'Rojas',
	'Mora',
	'Jiménez',
	'Smith',
	'Johnson',
	'Brown',
	'Herrera',
	'Medina',
	'Álvarez',
	'Torres',
];
const VEHICLES = [
	'Compact SUV, automatic, 2025',
	'Pickup 4x4 diesel',
	'Hybrid sedan',
	'Electric hatchback',
	'Seven-seat family SUV',
	'Used city car under 20,000',
	'Light commercial van',
	'Sports coupe',
	'Mid-size sedan, manual',
	'Crossover with panoramic roof',
];
const NOTES = [
	'Prefers contact after 6 pm.',
	'Has a trade-in: 2017 hatchback, 80,000 km.',
	'Asked about financing over 48 months.',
	'Wants a test drive on Saturday.',
	'Referred by an existing customer.',
];
const EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net'];
const HANDOFF_TRIGGERS = [
	'price negotiation',
	'trade-in valuation',
	'financing approval',
	'complaint',
	'test drive scheduling',
	'asks for a human',
];
const ALLOWED_TOPICS = [
	'vehicle specifications',
	'availability',
	'pricing',
	'financing',
	'test drives',
	'trade-ins',
	'service appointments',
	'warranty',
];
const ASCII_FIRST = FIRST_NAMES.map(ascii);
const ASCII_LAST = LAST_NAMES.map(ascii);
const AGENT_NAMES = ['Sofía', 'Lucas', 'Valentina', 'Mateo', 'Camila', 'Joaquín', 'Ana', 'Rafael'];

interface PhonePlan {
	prefix: string;
	digits: number;
	/** 10 ** digits */
	limit: number;
}
// Country code plus a national number of valid length, so every phone is E.164.
const PHONE_PLANS: PhonePlan[] = [
	{ prefix: '+54911', digits: 8 },
	{ prefix: '+521', digits: 10 },
	{ prefix: '+5068', digits: 7 },
	{ prefix: '+573', digits: 9 },
	{ prefix: '+55119', digits: 8 },
	{ prefix: '+1415', digits: 7 },
].map((plan) => ({ ...plan, limit: 10 ** plan.digits }));

const STATUS_WEIGHTS: Array<[LeadStatus, number]> = [
	['new', 0.25],
	['in_conversation', 0.25],
	['qualified', 0.15],
	['assigned', 0.15],
	['closed', 0.1],
	['lost', 0.1],
];

export interface SeedOptions {
	seed: number;
	leadsAlpha: number;
	leadsBeta?: number;
}

export function seedStore(options: SeedOptions): Store {
	const store = new Store();
	const ids = new Set<string>();
	const alpha = store.addOrganization({ id: ORG_ALPHA, name: 'Alpha Motors', suspended: false });
	const beta = store.addOrganization({ id: ORG_BETA, name: 'Beta Autos', suspended: false });
	store.addOrganization({ id: ORG_SUSPENDED, name: 'Gamma Cars', suspended: true });

	const plans = [
		{ org: alpha, leads: options.leadsAlpha, agents: 8, stream: 1 },
		{ org: beta, leads: options.leadsBeta ?? DEFAULT_LEADS_BETA, agents: 3, stream: 2 },
	];
	for (const plan of plans) {
		// One PRNG stream per organization: resizing one does not change the other.
		const rng = new Prng((options.seed ^ imul(plan.stream, 0x9e3779b1)) >>> 0);
		const uniqueId = (prefix: string, length: number) => {
			let id: string;
			do id = `${prefix}${rng.hex(length)}`;
			while (ids.has(id));
			ids.add(id);
			return id;
		};
		const advisors = Array.from({ length: 6 }, () => uniqueId('user_', 10));

		// Lead IDs are unique by construction (a bijection of stream and index, plus random
		// digits), so large seeds need no lookup per ID.
		const leadId = (index: number) =>
			'lead_' + hex8(imul((plan.stream << 28) + index, 0x2545f491) >>> 0) + rng.hex(8);
		const leads: LeadRecord[] = [];
		for (let i = 0; i < plan.leads; i++) {
			leads.push(makeLead(rng, i, plan.org.id, advisors, leadId(i)));
		}

		const conversations: ConversationRecord[] = [];
		const withConversations = min(leads.length, CONVERSATION_SEED_LEAD_CAP);
		for (let i = 0; i < withConversations; i++) {
			const lead = leads[i];
			const count = rng.chance(0.4) ? 2 : 1;
			for (let c = 0; c < count; c++) {
				// The first fifteen conversations cover every channel/status combination.
				const n = conversations.length;
				const forced: [ConversationChannel, ConversationStatus] | undefined =
					n < 15 ? [CONVERSATION_CHANNELS[n % 5], CONVERSATION_STATUSES[floor(n / 5)]] : undefined;
				conversations.push(makeConversation(rng, lead, forced, uniqueId));
			}
		}

		const agents: AgentRecord[] = [];
		for (let i = 0; i < plan.agents; i++) agents.push(makeAgent(rng, i, plan.org.id, uniqueId));

		for (const lead of leads) store.leads.set(lead.id, lead);
		for (const conversation of conversations)
			store.conversations.set(conversation.id, conversation);
		for (const agent of agents) store.agents.set(agent.id, agent);
		plan.org.leads.load(leads);
		plan.org.conversations.load(conversations);
		plan.org.agents.load(agents);
	}
	return store;
}

type UniqueId = (prefix: string, length: number) => string;

function makeLead(
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

function makeConversation(
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
	const id = uniqueId('conv_', 16);
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
				id: uniqueId('msg_', 16),
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

function makeAgent(
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

function dialogue(
	rng: Prng,
	firstName: string,
	vehicle: string,
): Array<{ lead: boolean; text: string }> {
	const lines = [
		{ lead: true, text: `Hi, I saw your ad. I am interested in ${vehicle}.` },
		{
			lead: false,
			text: `Hello ${firstName}! Thanks for reaching out. Is it for personal use or for work?`,
		},
		{
			lead: true,
			text: rng.pick([
				'Personal use, for the family.',
				'For work, I drive a lot.',
				'Both, really.',
			]),
		},
		{ lead: false, text: 'Great. Do you have a budget in mind, and would you consider financing?' },
		{ lead: true, text: `Around ${rng.int(15, 45)},000. Financing could work.` },
		{
			lead: false,
			text: 'We have options in that range. Would you like to book a test drive this week?',
		},
		{
			lead: true,
			text: rng.pick([
				'Yes, Saturday morning if possible.',
				'Maybe next week.',
				'Let me think about it.',
			]),
		},
	];
	return lines.slice(0, rng.int(3, lines.length));
}

function summary(rng: Prng, vehicle: string, status: ConversationStatus): string {
	const budget = `${rng.int(15, 45)},000`;
	const urgency = rng.pick([
		'wants to buy within 30 days',
		'plans to buy within 90 days',
		'is browsing',
	]);
	const action =
		status === 'transferred'
			? 'human advisor to call back with a financing quote'
			: status === 'closed'
				? 'none, conversation closed'
				: 'offer a test drive and send financing options';
	return `Vehicle interest: ${vehicle}. Budget: about ${budget}. Urgency: the lead ${urgency}. Action items: ${action}.`;
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

function hex8(value: number): string {
	return value.toString(16).padStart(8, '0');
}

function ascii(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase();
}

function extension(type: 'audio' | 'image' | 'document'): string {
	return type === 'audio' ? 'ogg' : type === 'image' ? 'jpg' : 'pdf';
}
