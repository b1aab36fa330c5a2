// 7. Polling trigger request economy: requests per poll (the sandbox's own request log) for each
// event, idle and with k changes, at two account sizes; the size of the position n8n stores; and
// one status poll under a tight rate limit (429 answers seen, outcome).

import { startTestSandbox } from '../../harness/engine';
import { createPollHarness, type PollHarness } from '../../harness/engine/poll';
import type { RunningSandbox } from '../../sandbox';

export interface PollEconomyArgs {
	sizes: number[];
	newLeads: number[];
	rateLimited: { leads: number; limit: number; windowMs: number };
}

export interface PollEconomyRow {
	event: 'newLead' | 'qualified' | 'transferred';
	leads: number;
	/** Records now in the watched status (status events). */
	inStatus?: number;
	/** Changes made before the poll (0: an idle poll). */
	changes: number;
	requests: number;
	/** ⌈(changes + leads at the mark)/100⌉ for new leads, ⌈n/100⌉ for a status. */
	expected: number;
	items: number;
	stateBytes: number;
}

export interface PollRateLimitedRow {
	leads: number;
	inStatus: number;
	limit: number;
	windowMs: number;
	requests: number;
	answers429: number;
	ok: boolean;
	error?: string;
	ms: number;
}

export interface PollEconomyResult {
	rows: PollEconomyRow[];
	rateLimited: PollRateLimitedRow;
}

async function counted(sandbox: RunningSandbox, trigger: PollHarness) {
	const before = sandbox.control.requests().length;
	const result = await trigger.poll();
	if (result.error) throw result.error;
	return { requests: sandbox.control.requests().length - before, items: result.items?.length ?? 0 };
}

const bytes = (trigger: PollHarness) => Buffer.byteLength(JSON.stringify(trigger.stored));

function alphaLeads(sandbox: RunningSandbox) {
	return sandbox.control.state().leads.filter((lead) => lead.organization_id === 'org_alpha');
}

/** How many leads share the newest `created_at`: what `created_after` = that instant returns. */
function leadsAtNewestMillisecond(sandbox: RunningSandbox): number {
	const times = alphaLeads(sandbox).map((lead) => Date.parse(lead.created_at));
	const newest = Math.max(...times);
	return times.filter((time) => time === newest).length;
}

export async function pollEconomy(args: PollEconomyArgs): Promise<PollEconomyResult> {
	const sandbox = await startTestSandbox({ leads: args.sizes[0], rateLimit: 1e9 });
	const credentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
	const rows: PollEconomyRow[] = [];
	try {
		for (const leads of args.sizes) {
			sandbox.control.reset({ leads });

			const newLead = createPollHarness({ event: 'newLead' }, credentials);
			await newLead.poll();
			for (const changes of [0, ...args.newLeads]) {
				// The leads of the mark's millisecond come back ("on or after"), counted from the service.
				const atMark = leadsAtNewestMillisecond(sandbox);
				for (let i = 0; i < changes; i++) sandbox.control.createChannelLead();
				const { requests, items } = await counted(sandbox, newLead);
				const expected = Math.max(1, Math.ceil((changes + atMark) / 100));
				rows.push({
					event: 'newLead',
					leads,
					changes,
					requests,
					expected,
					items,
					stateBytes: bytes(newLead),
				});
			}

			const qualified = createPollHarness(
				{ event: 'leadStatus', statuses: ['qualified'] },
				credentials,
			);
			await qualified.poll();
			for (const changes of [0, 10]) {
				const fresh = alphaLeads(sandbox)
					.filter((lead) => lead.status === 'new')
					.slice(0, changes);
				for (const lead of fresh) sandbox.control.qualifyLead(lead.id);
				const inStatus = alphaLeads(sandbox).filter((lead) => lead.status === 'qualified').length;
				const { requests, items } = await counted(sandbox, qualified);
				rows.push({
					event: 'qualified',
					leads,
					inStatus,
					changes,
					requests,
					expected: Math.max(1, Math.ceil(inStatus / 100)),
					items,
					stateBytes: bytes(qualified),
				});
			}

			const transferred = createPollHarness({ event: 'conversationTransferred' }, credentials);
			await transferred.poll();
			const inStatus = sandbox.control
				.state()
				.conversations.filter(
					(c) => c.organization_id === 'org_alpha' && c.status === 'transferred',
				).length;
			const { requests, items } = await counted(sandbox, transferred);
			rows.push({
				event: 'transferred',
				leads,
				inStatus,
				changes: 0,
				requests,
				expected: Math.max(1, Math.ceil(inStatus / 100)),
				items,
				stateBytes: bytes(transferred),
			});
		}

		const { leads, limit, windowMs } = args.rateLimited;
		sandbox.control.reset({ leads });
		const qualified = createPollHarness(
			{ event: 'leadStatus', statuses: ['qualified'] },
			credentials,
		);
		sandbox.control.setRateLimit(limit, windowMs);
		const before = sandbox.control.requests().length;
		const started = Date.now();
		const result = await qualified.poll();
		const log = sandbox.control.requests().slice(before);
		const rateLimited: PollRateLimitedRow = {
			leads,
			inStatus: alphaLeads(sandbox).filter((lead) => lead.status === 'qualified').length,
			limit,
			windowMs,
			requests: log.length,
			answers429: log.filter((entry) => entry.status === 429).length,
			ok: result.error === undefined,
			error: result.error?.message,
			ms: Date.now() - started,
		};
		return { rows, rateLimited };
	} finally {
		await sandbox.close();
	}
}
