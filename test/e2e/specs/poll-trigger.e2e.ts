import {
	listExecutions,
	nodeOutput,
	waitForExecutions,
} from '../../../harness/real-n8n/executions';
import { waitFor } from '../../../harness/real-n8n/processes';
import { POLL_NODE, POLL_WAIT_MS, sleep, usePollTriggerN8n } from '../support/pollTrigger';

// The polling trigger inside a real n8n without any public URL: plain HTTP on localhost, a
// one-minute Poll Times. Two workflows poll the sandbox (new leads, leads reaching qualified);
// the service changes between polls and across an n8n restart, and the executions n8n records
// are compared with those changes. Minimum number of polls: activation (baseline), one
// scheduled poll, the poll of the restart, one more scheduled poll.

const ctx = usePollTriggerN8n('poll-trigger', 777);

describe('Lead Conversations Polling Trigger in n8n 2.41.1, one-minute Poll Times, no public URL', () => {
	let beforeActivation: string;
	let first: string;
	let qualifiedFirst: string;

	it('activation polls once to set the baseline and starts nothing', async () => {
		beforeActivation = ctx.sandbox.control.createChannelLead().id;
		await ctx.activate();
		await sleep(3_000);
		expect(await listExecutions(ctx.api, ctx.newLeads)).toHaveLength(0);
		expect(await listExecutions(ctx.api, ctx.qualified)).toHaveLength(0);
	}, 60_000);

	it(
		'the next poll starts one execution per workflow with exactly the changes since',
		async () => {
			first = ctx.sandbox.control.createChannelLead().id;
			qualifiedFirst = ctx.newLeadOfAlpha();
			ctx.sandbox.control.qualifyLead(qualifiedFirst, 91);

			const [leads] = await waitForExecutions(ctx.api, ctx.newLeads, 1, POLL_WAIT_MS);
			expect(leads.status).toBe('success');
			expect(leads.mode).toBe('trigger');
			expect(nodeOutput(leads, POLL_NODE).map((item) => item.json)).toEqual([
				expect.objectContaining({ id: first, event: 'lead.created' }),
			]);
			const [qualified] = await waitForExecutions(ctx.api, ctx.qualified, 1, POLL_WAIT_MS);
			expect(nodeOutput(qualified, POLL_NODE).map((item) => item.json)).toEqual([
				expect.objectContaining({ id: qualifiedFirst, event: 'lead.qualified', score: 91 }),
			]);
		},
		2 * POLL_WAIT_MS,
	);

	it(
		'changes made while n8n is down start one execution each after the restart, the lead of the same millisecond included',
		async () => {
			const { sandbox } = ctx;
			await sleep(2_000);
			await ctx.n8n.stop();
			const createdAt = sandbox.control.state().leads.find((l) => l.id === first)!.created_at;
			const twin = sandbox.control.createChannelLead({ created_at: createdAt }).id;
			const later = sandbox.control.createChannelLead().id;
			const qualifiedLater = ctx.newLeadOfAlpha();
			sandbox.control.qualifyLead(qualifiedLater, 77);

			await ctx.startAgain();
			await waitForExecutions(ctx.api, ctx.newLeads, 2, POLL_WAIT_MS);
			await waitForExecutions(ctx.api, ctx.qualified, 2, POLL_WAIT_MS);
			const leadRuns = await ctx.leadIdsPerExecution(ctx.newLeads);
			expect(leadRuns).toHaveLength(2);
			expect(leadRuns[1].sort()).toEqual([twin, later].sort());
			expect(await ctx.leadIdsPerExecution(ctx.qualified)).toEqual([
				[qualifiedFirst],
				[qualifiedLater],
			]);
		},
		4 * POLL_WAIT_MS,
	);

	it(
		'the poll after that starts nothing: no change announced twice, the baseline lead never',
		async () => {
			const polls = ctx.newLeadPolls();
			await waitFor(
				'one more scheduled poll',
				async () => ctx.newLeadPolls() > polls || undefined,
				{
					timeoutMs: POLL_WAIT_MS,
					intervalMs: 500,
				},
			);
			await sleep(5_000);
			const leadIds = (await ctx.leadIdsPerExecution(ctx.newLeads)).flat();
			expect(leadIds).toHaveLength(3);
			expect(new Set(leadIds).size).toBe(3);
			expect(leadIds).not.toContain(beforeActivation);
			expect(await ctx.leadIdsPerExecution(ctx.qualified)).toHaveLength(2);
		},
		2 * POLL_WAIT_MS,
	);
});
