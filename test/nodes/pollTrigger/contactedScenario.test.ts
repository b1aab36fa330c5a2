// Assigned Lead Contacted over a scenario: 14 leads assigned at once, their advisors answering at
// times the scenario chooses (several within the first minute, one in the same second as the
// notice), the workflow's notices posted at 0 s and, for some, at 65 s; polls every minute of the
// service's clock. Each answered lead is announced once, with the chosen response to the second;
// leads with notices only never are.

import { useSandbox } from '../../support/useSandbox';
import { describeEachKeeping } from './helpers';
import { assign, leadWithOpenConversation, postAsAdvisor } from './notContactedHelpers';

const ctx = useSandbox();
const NOTICE = 'An advisor will contact you shortly';
const LATE_NOTICE = 'Thank you for waiting. Another advisor will contact you shortly.';

/** Seconds after its assignment each lead's advisor first writes; null: never. */
const ANSWERS = [3, 5, 5, 12, 30, 59, 61, 65, 90, 200, 600, 3600, null, null];
/** Leads that also get the late notice at 65 s (before or after their answer). */
const LATE_NOTICED = new Set([6, 7, 9, 12]);

describeEachKeeping(ctx, (pollTrigger) => {
	test('each answer announced once with the response the scenario chose, to the second', async () => {
		const serviceNow = () => Date.parse(ctx.sandbox.control.clock().now);
		const moveTo = (ms: number) => {
			const by = ms - serviceNow();
			if (by > 0) ctx.sandbox.control.advanceClock(by);
		};
		const trigger = pollTrigger({ event: 'assignedContacted' });
		await trigger.poll();
		const leads = ANSWERS.map((_, i) => leadWithOpenConversation(ctx.sandbox, i));
		const assignedAt: number[] = [];
		for (const [i, { lead, conversation }] of leads.entries()) {
			assignedAt.push(
				Date.parse((await assign(ctx.sandbox, lead.id, `user_adv_${i % 4}`)).updated_at),
			);
			await postAsAdvisor(ctx.sandbox, conversation.id, NOTICE);
		}
		// Every write of the scenario at its time on the service's clock, in order.
		const writes = leads
			.flatMap(({ conversation }, i) => [
				...(ANSWERS[i] === null
					? []
					: [{ at: assignedAt[i] + ANSWERS[i]! * 1000, i, text: `Advisor here (${i})` }]),
				...(LATE_NOTICED.has(i) ? [{ at: assignedAt[i] + 65_000, i, text: LATE_NOTICE }] : []),
			])
			.map((write) => ({ ...write, conversationId: leads[write.i].conversation.id }));
		writes.sort((a, b) => a.at - b.at);
		let nextPoll = assignedAt[0] + 60_000;
		for (const write of writes) {
			// A poll every minute, only where the next write is far enough off not to be overtaken.
			while (nextPoll + 10_000 < write.at) {
				moveTo(nextPoll);
				await trigger.poll();
				nextPoll += 60_000;
			}
			moveTo(write.at);
			// Lead 2: a second notice in the very second its advisor answers.
			if (write.i === 2 && write.text !== LATE_NOTICE) {
				await postAsAdvisor(ctx.sandbox, write.conversationId, NOTICE);
			}
			await postAsAdvisor(ctx.sandbox, write.conversationId, write.text);
		}
		moveTo(serviceNow() + 60_000);
		await trigger.poll();
		await trigger.poll();

		const announced = trigger.executions.flat();
		const byLead = new Map(announced.map((item) => [item.id, item]));
		expect(announced).toHaveLength(byLead.size);
		const expected = leads
			.map(({ lead }, i) => ({ id: lead.id, seconds: ANSWERS[i] }))
			.filter(({ seconds }) => seconds !== null);
		expect(
			[...byLead.values()].map((item) => ({ id: item.id, seconds: item.response_seconds })),
		).toEqual(expect.arrayContaining(expected));
		expect(byLead.size).toBe(expected.length);
		for (const [i, { lead }] of leads.entries()) {
			const item = byLead.get(lead.id);
			if (!item) continue;
			expect(item).toMatchObject({
				advisor: `user_adv_${i % 4}`,
				waiting_since: new Date(assignedAt[i]).toISOString(),
			});
		}
	});
});
