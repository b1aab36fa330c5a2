// A poll that fails or runs out of time: nothing announced, no position moved.

import { useJumpingClock } from '../clock';
import { useSandbox } from '../../support/useSandbox';
import { NEW_LEAD, idsOf, describeEachKeeping, pollIdsWithinBudget } from './helpers';

const ctx = useSandbox();

describeEachKeeping(ctx, (pollTrigger, keeping) => {
	describe('service errors', () => {
		test.each([
			['a suspended account', 'suspended', /403/],
			['a revoked key', 'revoked', /401/],
		] as const)(
			'%s fails the poll with the service message, nothing started',
			async (_, role, status) => {
				const trigger = pollTrigger(NEW_LEAD, { apiKey: ctx.sandbox.keys[role] });
				const result = await trigger.poll();
				expect(result.items).toBeNull();
				expect(result.error?.message).toBeDefined();
				expect(
					`${result.error!.message} ${(result.error as { description?: string }).description}`,
				).toMatch(status);
				expect(trigger.position).toEqual({});
			},
		);

		test('a key revoked after activation: the poll fails, the position stays, and resumes once fixed', async () => {
			const trigger = pollTrigger(NEW_LEAD);
			await trigger.poll();
			const stored = trigger.position;
			const lead = ctx.sandbox.control.createChannelLead();
			ctx.sandbox.control.revokeKey(ctx.sandbox.keys.full);
			const failed = await trigger.poll();
			expect(failed.error).toBeDefined();
			expect(trigger.position).toEqual(stored);
			ctx.sandbox.control.reset({ leads: 0 });
			// After a reset the same key works again; the lead is gone, so nothing is announced.
			expect((await trigger.poll()).error).toBeUndefined();
			expect(idsOf(trigger.executions.flat())).not.toContain(lead.id);
		});
	});

	describe('the service down', () => {
		// The transport's retries wait on a clock that jumps to each wait's end: no real waiting.
		useJumpingClock();

		test('the poll fails after the retries, the position stays', async () => {
			const trigger = pollTrigger(NEW_LEAD);
			await trigger.poll();
			const stored = trigger.position;
			ctx.sandbox.control.createChannelLead();
			ctx.sandbox.control.injectFaults({ kind: 'status', status: 503, probability: 1 });
			const failed = await trigger.poll();
			expect(failed.error?.message).toMatch(/503/);
			expect(trigger.position).toEqual(stored);
			expect(trigger.executions).toHaveLength(0);
		});
	});

	describe('the poll time budget', () => {
		// Only n8n 2.41's durable poll cursors give a poll a budget of their own; otherwise n8n
		// (and the node on 1.x) allows 5 minutes, beyond a test.
		(keeping === 'staged' ? test : test.skip)(
			'a burst too large for one poll is announced over several polls, each lead once, no poll past its budget',
			async () => {
				const budgetMs = 700;
				const trigger = pollTrigger(NEW_LEAD, { budgetMs });
				// The mark starts at a lead just before the burst, not a day back: the span the polls
				// narrow is the burst's few milliseconds, so each halving is a poll of its own.
				ctx.sandbox.control.createChannelLead();
				await trigger.poll();
				const leads = Array.from({ length: 1_000 }, () => ctx.sandbox.control.createChannelLead());
				ctx.sandbox.control.injectFaults({
					kind: 'delay',
					delayMs: 100,
					probability: 1,
					pathPrefix: '/v1/leads',
				});
				const seen: unknown[] = [];
				let polls = 0;
				while (seen.length < leads.length && polls < 60) {
					seen.push(...(await pollIdsWithinBudget(trigger, budgetMs)));
					polls++;
				}
				ctx.sandbox.control.clearFaults();
				expect(polls).toBeGreaterThan(1);
				expect(new Set(seen).size).toBe(seen.length);
				expect([...seen].sort()).toEqual(leads.map((lead) => lead.id).sort());
				expect((await trigger.poll()).items).toBeNull();
				expect(trigger.position.newLeads).not.toHaveProperty('window');
			},
			120_000,
		);
	});
});
