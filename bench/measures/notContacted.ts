// 10. Assigned Lead Not Contacted: requests per poll (the sandbox's own request log) with A leads
// in `assigned`, idle and with ended waits of each kind, and the size of the stored waits.

import { startTestSandbox } from '../../harness/engine';
import { createPollHarness, type PollHarness } from '../../harness/engine/poll';
import type { RunningSandbox, StoredLead } from '../../sandbox';

export interface NotContactedArgs {
	/** Leads in `assigned` at the measured polls. */
	sizes: number[];
	/** Ended waits per kind in the poll that checks them. */
	perKind: number;
}

export interface NotContactedRow {
	assigned: number;
	/** Activation (notes every lead), idle, or the poll where waits ended. */
	poll: 'activation' | 'idle' | 'ended';
	/** Ended waits by kind: no conversation message since, AI message only, human message. */
	ended: { silent: number; aiOnly: number; contacted: number };
	requests: number;
	/** ⌈A/100⌉ + 1 per ended wait + 1 per conversation with messages after the assignment. */
	expected: number;
	items: number;
	ms: number;
	stateBytes: number;
}

export interface NotContactedResult {
	rows: NotContactedRow[];
	/** Stored bytes per lead in `assigned` after the idle poll (nobody missed yet). */
	bytesPerLead: Record<number, number>;
	/** Bytes of one lead's stored wait: announced for one advisor, and for two. */
	bytesMissed: { one: number; two: number };
}

const MINUTE = 60_000;
const SEEDED = 600;

export function alpha(sandbox: RunningSandbox): StoredLead[] {
	return sandbox.control.state().leads.filter((lead) => lead.organization_id === 'org_alpha');
}

export async function measured(sandbox: RunningSandbox, trigger: PollHarness) {
	sandbox.control.clearRequests();
	const startedAt = Date.now();
	const result = await trigger.poll();
	const ms = Date.now() - startedAt;
	if (result.error) throw result.error;
	return {
		requests: sandbox.control.requests().length,
		items: result.items?.length ?? 0,
		ms,
		stateBytes: Buffer.byteLength(JSON.stringify(trigger.stored)),
	};
}

/** Bytes one lead's wait adds to the stored JSON: `"id":[…],`. */
function entryBytes(trigger: PollHarness, id: string): number {
	const waits = (trigger.stored.notContacted as { waits: Record<string, unknown> }).waits;
	return Buffer.byteLength(`${JSON.stringify(id)}:${JSON.stringify(waits[id])},`);
}

export async function patch(sandbox: RunningSandbox, id: string, body: object) {
	const response = await fetch(`${sandbox.baseUrl}/leads/${id}`, {
		method: 'PATCH',
		headers: { 'X-API-Key': sandbox.keys.full, 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`PATCH /leads/${id}: ${response.status}`);
}

/** Unassigned seeded leads with a conversation, for waits that end with messages or none. */
export function leadsWithConversation(sandbox: RunningSandbox, count: number) {
	const state = sandbox.control.state();
	const taken = new Set<string>();
	const found: Array<{ leadId: string; conversationId: string }> = [];
	for (const conversation of state.conversations) {
		if (conversation.organization_id !== 'org_alpha' || taken.has(conversation.lead_id)) continue;
		const lead = state.leads.find((l) => l.id === conversation.lead_id);
		if (!lead || lead.status === 'assigned' || conversation.channel === 'phone') continue;
		taken.add(lead.id);
		found.push({ leadId: lead.id, conversationId: conversation.id });
		if (found.length === count) return found;
	}
	throw new Error('Not enough seeded leads with a conversation');
}

export async function notContacted(args: NotContactedArgs): Promise<NotContactedResult> {
	const sandbox = await startTestSandbox({ leads: SEEDED, rateLimit: 1e9 });
	const credentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
	const rows: NotContactedRow[] = [];
	const bytesPerLead: Record<number, number> = {};
	let bytesMissed = { one: 0, two: 0 };
	const k = args.perKind;
	try {
		for (const size of args.sizes) {
			sandbox.control.reset({ leads: SEEDED });
			// The ended waits of this run are assigned after activation: 3k leads of the size.
			const fill = size - 3 * k - alpha(sandbox).filter((l) => l.status === 'assigned').length;
			for (let i = 0; i < fill; i++) {
				// Advisor IDs as long as the seed's (user_ and 10 characters), 40 advisors.
				const advisor = `user_${String(i % 40).padStart(10, '0')}`;
				sandbox.control.createChannelLead({ status: 'assigned', assigned_to: advisor });
			}
			const trigger = createPollHarness(
				{ event: 'assignedNotContacted', waitAmount: 15, waitUnit: 'minutes' },
				credentials,
			);
			const pages = Math.ceil(size / 100);
			const before = Math.ceil((size - 3 * k) / 100);
			const none = { silent: 0, aiOnly: 0, contacted: 0 };
			rows.push({
				assigned: size - 3 * k,
				poll: 'activation',
				ended: none,
				expected: before,
				...(await measured(sandbox, trigger)),
			});

			const silent = Array.from({ length: k }, () => sandbox.control.createChannelLead().id);
			const talked = leadsWithConversation(sandbox, 2 * k);
			for (const id of [...silent, ...talked.map((t) => t.leadId)]) {
				await patch(sandbox, id, { status: 'assigned', assigned_to: 'user_bench_01' });
			}
			const idle = await measured(sandbox, trigger);
			rows.push({ assigned: size, poll: 'idle', ended: none, expected: pages, ...idle });
			bytesPerLead[size] = idle.stateBytes / size;

			sandbox.control.advanceClock(5 * MINUTE);
			talked.forEach(({ conversationId }, i) =>
				sandbox.control.addMessage(conversationId, { sent_by: i < k ? 'ai_agent' : 'human' }),
			);
			sandbox.control.advanceClock(11 * MINUTE);
			const ended = { silent: k, aiOnly: k, contacted: k };
			rows.push({
				assigned: size,
				poll: 'ended',
				ended,
				expected: pages + 3 * k + 2 * k,
				...(await measured(sandbox, trigger)),
			});

			if (size === args.sizes[0]) {
				// One silent lead passed on to a second advisor who is silent too.
				await patch(sandbox, silent[0], { assigned_to: 'user_bench_02' });
				await trigger.poll();
				sandbox.control.advanceClock(16 * MINUTE);
				await trigger.poll();
				bytesMissed = { one: entryBytes(trigger, silent[1]), two: entryBytes(trigger, silent[0]) };
			}
		}
	} finally {
		await sandbox.close();
	}
	return { rows, bytesPerLead, bytesMissed };
}
