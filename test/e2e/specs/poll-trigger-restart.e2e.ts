import { listExecutions } from '../../../harness/real-n8n/executions';
import { waitFor } from '../../../harness/real-n8n/processes';
import { queryN8nDatabase } from '../../../harness/real-n8n/sqlite';
import { POLL_NODE, POLL_WAIT_MS, sleep, usePollTriggerN8n } from '../support/pollTrigger';

// A restart of n8n before the polling trigger's first execution: does the position the activation
// poll took survive it? n8n 2.41.1, default settings (no durable poll cursors). Two workflows
// (New Lead, Lead Reached a Status) are activated, n8n is stopped before any execution, the
// service changes while n8n is down, n8n starts again. What the database holds after the
// activation and which changes the polls after the restart announce are printed and asserted.

const ctx = usePollTriggerN8n('poll-trigger-restart', 778);

/** The polling trigger's static data as n8n stored it in the workflow's row. */
async function storedPosition(workflowId: string): Promise<Record<string, any> | undefined> {
	const [row] = await queryN8nDatabase<{ staticData: string | null }>(
		ctx.userFolder,
		'SELECT staticData FROM workflow_entity WHERE id = ?',
		[workflowId],
	);
	return row?.staticData ? JSON.parse(row.staticData)[`node:${POLL_NODE}`] : undefined;
}

describe('Polling Trigger in n8n 2.41.1: a restart before the first execution', () => {
	let beforeActivation: string;

	it('the activation poll stores its position in the database at once, with no execution', async () => {
		beforeActivation = ctx.sandbox.control.createChannelLead().id;
		await ctx.activate();
		const stored = await waitFor(
			'both positions in the database',
			async () => {
				const positions = [await storedPosition(ctx.newLeads), await storedPosition(ctx.qualified)];
				return positions.every(Boolean) ? positions : undefined;
			},
			{ timeoutMs: 20_000, intervalMs: 500 },
		);
		process.stdout.write(
			`polls before the stop: ${ctx.newLeadPolls()} New Lead poll(s); stored after activation:\n` +
				`${JSON.stringify(stored)}\n`,
		);
		const [newLeads, qualified] = stored;
		expect(newLeads?.newLeads.atMark).toContain(beforeActivation);
		expect(Object.values(qualified?.inStatus ?? {})).toEqual([expect.any(Array)]);
		expect(await listExecutions(ctx.api, ctx.newLeads)).toHaveLength(0);
		expect(await listExecutions(ctx.api, ctx.qualified)).toHaveLength(0);

		await ctx.n8n.stop();
		expect([await storedPosition(ctx.newLeads), await storedPosition(ctx.qualified)]).toEqual(
			stored,
		);
	}, 120_000);

	it(
		'changes made while n8n was down are announced once after the restart; the baseline lead never',
		async () => {
			const lead = ctx.sandbox.control.createChannelLead().id;
			const qualifiedLead = ctx.newLeadOfAlpha();
			ctx.sandbox.control.qualifyLead(qualifiedLead, 83);

			await ctx.startAgain();
			const polls = ctx.newLeadPolls();
			// The poll of the restart and one scheduled poll after it.
			await waitFor(
				'two polls after the restart',
				async () => ctx.newLeadPolls() >= polls + 2 || undefined,
				{
					timeoutMs: 2 * POLL_WAIT_MS,
					intervalMs: 500,
				},
			);
			await sleep(5_000);
			const leads = await ctx.leadIdsPerExecution(ctx.newLeads);
			const qualified = await ctx.leadIdsPerExecution(ctx.qualified);
			process.stdout.write(
				`after the restart: New Lead executions ${JSON.stringify(leads)}, ` +
					`Lead Reached a Status executions ${JSON.stringify(qualified)}\n`,
			);
			expect(leads).toEqual([[lead]]);
			expect(qualified).toEqual([[qualifiedLead]]);
			expect(leads.flat()).not.toContain(beforeActivation);
		},
		3 * POLL_WAIT_MS,
	);
});
