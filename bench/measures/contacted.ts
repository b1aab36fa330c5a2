// 13. Assigned Lead Contacted: requests per poll (the sandbox's own request log) with A leads in
// `assigned` and 0, k leads waiting for their advisor active since the poll before (half with
// the AI's message only, half with their advisor's first message), and the size of the state.

import { startTestSandbox } from '../../harness/engine';
import { createPollHarness } from '../../harness/engine/poll';
import { alpha, leadsWithConversation, measured, patch } from './notContacted';

export interface ContactedArgs {
	/** Leads in `assigned` at the measured polls. */
	sizes: number[];
	/** Waiting leads active since the poll before, one poll each. */
	active: number[];
}

export interface ContactedRow {
	assigned: number;
	/** What happened since the poll before. */
	poll: 'activation' | 'assigned' | 'active';
	/** Waiting leads newly assigned, or active (AI only + advisor) since the poll before. */
	leads: number;
	requests: number;
	/** ⌈A/100⌉ + 1 per new wait + 2 per active waiting lead (its list, the one conversation). */
	expected: number;
	items: number;
	ms: number;
	stateBytes: number;
}

const SEEDED = 600;
const ADVISOR = 'user_bench_01';

export async function contacted(args: ContactedArgs): Promise<ContactedRow[]> {
	const sandbox = await startTestSandbox({ leads: SEEDED, rateLimit: 1e9 });
	const credentials = { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl };
	const rows: ContactedRow[] = [];
	const waiting = args.active.reduce((sum, k) => sum + k, 0);
	try {
		for (const size of args.sizes) {
			sandbox.control.reset({ leads: SEEDED });
			const fill = size - waiting - alpha(sandbox).filter((l) => l.status === 'assigned').length;
			for (let i = 0; i < fill; i++) {
				const advisor = `user_${String(i % 40).padStart(10, '0')}`;
				sandbox.control.createChannelLead({ status: 'assigned', assigned_to: advisor });
			}
			const trigger = createPollHarness({ event: 'assignedContacted' }, credentials);
			const before = size - waiting;
			const activation = await measured(sandbox, trigger);
			const pagesBefore = Math.ceil(before / 100);
			rows.push({
				assigned: before,
				poll: 'activation',
				leads: 0,
				expected: pagesBefore,
				...activation,
			});

			const talked = leadsWithConversation(sandbox, waiting);
			for (const { leadId } of talked) {
				await patch(sandbox, leadId, { status: 'assigned', assigned_to: ADVISOR });
			}
			const pages = Math.ceil(size / 100);
			const assigned = await measured(sandbox, trigger);
			rows.push({
				assigned: size,
				poll: 'assigned',
				leads: waiting,
				expected: pages + waiting,
				...assigned,
			});

			let next = 0;
			for (const k of [0, ...args.active]) {
				sandbox.control.advanceClock(60_000);
				talked.slice(next, next + k).forEach(({ conversationId }, i) =>
					sandbox.control.addMessage(conversationId, {
						sent_by: i % 2 === 0 ? 'ai_agent' : 'human',
					}),
				);
				next += k;
				const row = await measured(sandbox, trigger);
				rows.push({ assigned: size, poll: 'active', leads: k, expected: pages + 2 * k, ...row });
			}
		}
	} finally {
		await sandbox.close();
	}
	return rows;
}
