import {
	CONVERSATION_CHANNELS,
	CONVERSATION_SEED_LEAD_CAP,
	CONVERSATION_STATUSES,
	DEFAULT_LEADS_BETA,
	ORG_ALPHA,
	ORG_BETA,
	ORG_SUSPENDED,
	type ConversationChannel,
	type ConversationStatus,
	LEAD_ID_PREFIX,
} from '../constants';
import { Prng } from '../prng';
import { Store } from '../store';
import type { AgentRecord, ConversationRecord, LeadRecord } from '../types';
import { makeAgent, makeConversation, makeLead } from './records';

// Aliases of globals used in the hot seeding loop (global lookups are slow inside vm contexts,
// e.g. under jest).
const { floor, min, imul } = Math;

// Deterministic seed data: the same seed and size always give the same records, with every
// channel, status, intent, language and the null cases represented in org_alpha.

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
			LEAD_ID_PREFIX + hex8(imul((plan.stream << 28) + index, 0x2545f491) >>> 0) + rng.hex(8);
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

function hex8(value: number): string {
	return value.toString(16).padStart(8, '0');
}
