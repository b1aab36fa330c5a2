// Sizes, repetitions and targets of `npm run bench`. BENCH_QUICK=1 shrinks everything for a
// quick look while developing (its figures are not the ones to quote).

import type { ClientName } from './lib/clients';

export const QUICK = process.env.BENCH_QUICK === '1';

export const MEASURES = [
	'economy',
	'overhead',
	'rateLimited',
	'memory',
	'signature',
	'realN8n',
	'n8nMemory',
	'pollEconomy',
	'queue',
	'sync',
	'assignEconomy',
	'notContacted',
	'contacted',
	'speedToLead',
] as const;
export type MeasureName = (typeof MEASURES)[number];

/** BENCH_ONLY=economy,memory runs only those measures. */
export function selectedMeasures(): MeasureName[] {
	const only = process.env.BENCH_ONLY?.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	if (!only || only.length === 0) return [...MEASURES];
	for (const name of only) {
		if (!(MEASURES as readonly string[]).includes(name)) {
			throw new Error(`BENCH_ONLY: unknown measure "${name}" (known: ${MEASURES.join(', ')})`);
		}
	}
	return MEASURES.filter((name) => only.includes(name));
}

const OVERHEAD_CLIENTS: ClientName[] = ['bare', 'node', 'http', 'httpSplit'];

export const config = {
	economy: {
		sizes: QUICK ? [1_000, 5_000] : [1_000, 20_000, 100_000],
		limits: [1, 99, 100, 101, 250],
		limitLeads: 1_000,
	},
	overhead: {
		leads: QUICK ? 5_000 : 20_000,
		reps: QUICK ? 3 : 5,
		clients: OVERHEAD_CLIENTS,
	},
	rateLimited: {
		limit: 50,
		windowMs: 2_000,
		otherPerWindow: 40,
		startOffsetMs: 100,
		leadsA: QUICK ? 10_000 : 20_000,
		leadsB: QUICK ? 2_000 : 5_000,
		reps: QUICK ? 1 : 3,
		careful: { requestIntervalMs: 40, maxTries: 5, waitBetweenTriesMs: 2_000 },
	},
	memory: {
		sizes: QUICK ? [5_000, 20_000] : [20_000, 100_000],
		reps: QUICK ? 1 : 3,
		clients: OVERHEAD_CLIENTS,
	},
	assignEconomy: {
		sizes: QUICK ? [1_000, 20_000] : [1_000, 100_000],
		leads: QUICK ? 2 : 4,
		capacityAssigned: [1_000, 20_000],
	},
	pollEconomy: {
		sizes: QUICK ? [1_000, 20_000] : [1_000, 100_000],
		newLeads: [1, 10, 250],
		rateLimited: { leads: QUICK ? 20_000 : 100_000, limit: 10, windowMs: 1_000 },
	},
	notContacted: {
		sizes: [1_000, 20_000],
		perKind: 5,
	},
	contacted: {
		sizes: QUICK ? [1_000] : [1_000, 20_000],
		active: [10, 100],
	},
	speedToLead: {
		assigned: 1_000,
		perPoll: QUICK ? [1, 10] : [1, 10, 50],
	},
	sync: {
		sizes: QUICK ? [1_000, 20_000] : [1_000, 20_000, 100_000],
		changes: 50,
		limited: {
			leads: QUICK ? 20_000 : 100_000,
			limit: 1_000,
			windowMs: 60_000,
			otherPerWindow: 200,
		},
		lag: { leads: 1_000, pollEveryMs: 5_000, changes: 40 },
	},
	signature: {
		sizes: [1_024, 10_240, 102_400],
		batches: QUICK ? 3 : 7,
		batchMs: 50,
	},
	realN8n: {
		webhooks: {
			/** Deliveries in flight at once: one at a time, and several. */
			concurrencies: [1, 8],
			/** Deliveries per measured burst and workflow. */
			deliveries: QUICK ? 40 : 100,
			/** Five: the machine is shared, and a median of five ratios shrugs off two disturbed rounds. */
			rounds: QUICK ? 1 : 5,
			bodyBytes: 1_024,
		},
		returnAll: { leads: QUICK ? 5_000 : 20_000, reps: QUICK ? 2 : 5 },
	},
	n8nMemory: {
		deliveries: QUICK ? 200 : 2_000,
		concurrency: 8,
		reps: QUICK ? 1 : 2,
		bodyBytes: 1_024,
		sampleMs: 100,
	},
	queue: {
		concurrency: 8,
		deliveries: QUICK ? 60 : 200,
		rounds: QUICK ? 1 : 3,
		bodyBytes: 1_024,
	},
};

export const targets = {
	requestRatio: 1.0,
	overheadPerPageMs: 2,
	timeRatioVsHttpNode: 1.0,
	rateLimitedTimeRatio: 1.1,
	rateLimitedMax429PerWindowB: 1,
	/** Heap retained ÷ a bare loop's: a second copy of the leads would be about 2. */
	retainedVsBareMax: 1.5,
	/** Retained heap per output byte at the larger size ÷ at the smaller one. */
	linearityBand: [0.8, 1.25] as const,
	webhookThroughputRatio: 0.9,
	/** Webhook → Verify ÷ Webhook → Crypto → IF, with n8n's defaults. */
	verifyVsChainRatio: 0.9,
	/** Trigger ÷ Webhook → Crypto → IF when both pay n8n's expression isolate. */
	triggerVsChainEqualTerms: 1.0,
	/** n8n's peak RSS in a burst to the trigger ÷ the same burst to n8n's Webhook node. */
	peakMemoryVsWebhookNode: 1.5,
};
