// Assigned Lead Not Contacted: what a poll costs (the sandbox's request log), and a poll that
// stops early or fails loses no announcement and repeats none.

import { useSandbox } from '../../support/useSandbox';
import { describeEachKeeping, idsOf } from './helpers';
import {
	ADVISOR_A,
	MINUTE,
	NOT_CONTACTED,
	assign,
	leadWithOpenConversation,
	postAsAdvisor,
} from './notContactedHelpers';

const ctx = useSandbox({ leads: 1_500 });
const advance = (ms: number) => ctx.sandbox.control.advanceClock(ms);

const assignedCount = () =>
	ctx.sandbox.control
		.state()
		.leads.filter((lead) => lead.organization_id === 'org_alpha' && lead.status === 'assigned')
		.length;

/** A lead with no conversation at all (a channel lead just arrived), assigned now. */
async function assignedChannelLead(advisor = ADVISOR_A) {
	const lead = ctx.sandbox.control.createChannelLead();
	await assign(ctx.sandbox, lead.id, advisor);
	return lead;
}

describeEachKeeping(ctx, (pollTrigger, keeping) => {
	test('a poll costs ⌈A/100⌉ requests, plus 1 per lead whose wait ended, plus 1 per conversation with messages after the assignment', async () => {
		const trigger = pollTrigger(NOT_CONTACTED);
		await trigger.poll();
		const silent = await assignedChannelLead();
		const onlyAi = leadWithOpenConversation(ctx.sandbox, 0);
		const answered = leadWithOpenConversation(ctx.sandbox, 1);
		await assign(ctx.sandbox, onlyAi.lead.id, ADVISOR_A);
		await assign(ctx.sandbox, answered.lead.id, ADVISOR_A);
		await trigger.poll();
		advance(5 * MINUTE);
		ctx.sandbox.control.addMessage(onlyAi.conversation.id, { sent_by: 'ai_agent' });
		await postAsAdvisor(ctx.sandbox, answered.conversation.id, 'Calling you in a minute.');
		advance(11 * MINUTE);

		const assigned = assignedCount();
		expect(assigned).toBeGreaterThan(200);
		ctx.sandbox.control.clearRequests();
		const { items, error } = await trigger.poll();
		expect(error).toBeUndefined();
		expect(idsOf(items).sort()).toEqual([silent.id, onlyAi.lead.id].sort());

		const requests = ctx.sandbox.control.requests();
		const count = (test: (path: string) => boolean) =>
			requests.filter((request) => test(request.path)).length;
		expect(count((path) => path === '/v1/leads')).toBe(Math.ceil(assigned / 100));
		expect(count((path) => path === '/v1/conversations')).toBe(3);
		expect(
			requests
				.filter((request) => request.path.startsWith('/v1/conversations/'))
				.map((request) => request.path)
				.sort(),
		).toEqual(
			[
				`/v1/conversations/${onlyAi.conversation.id}`,
				`/v1/conversations/${answered.conversation.id}`,
			].sort(),
		);
		expect(requests).toHaveLength(Math.ceil(assigned / 100) + 3 + 2);

		// Idle: nothing ended since; only the list.
		ctx.sandbox.control.clearRequests();
		await trigger.poll();
		expect(ctx.sandbox.control.requests()).toHaveLength(Math.ceil(assigned / 100));
	});

	test('a poll that fails after announcing one lead stores nothing; the next announces each lead once', async () => {
		const trigger = pollTrigger(NOT_CONTACTED);
		await trigger.poll();
		const first = await assignedChannelLead();
		const second = leadWithOpenConversation(ctx.sandbox);
		await assign(ctx.sandbox, second.lead.id, ADVISOR_A);
		await trigger.poll();
		advance(5 * MINUTE);
		ctx.sandbox.control.addMessage(second.conversation.id, { sent_by: 'ai_agent' });
		advance(11 * MINUTE);
		const before = trigger.position;
		// The second lead's conversation cannot be read: after the first lead was judged.
		ctx.sandbox.control.injectFaults({
			kind: 'status',
			status: 404,
			pathPrefix: `/v1/conversations/${second.conversation.id}`,
		});
		const failed = await trigger.poll();
		expect(failed.error?.message).toMatch(/conversation conv_\w+ of lead lead_\w+ not found/);
		expect(failed.items).toBeNull();
		expect(trigger.position).toEqual(before);
		expect(idsOf((await trigger.poll()).items).sort()).toEqual([first.id, second.lead.id].sort());
		expect((await trigger.poll()).items).toBeNull();
		expect(trigger.executions.flat()).toHaveLength(2);
	});

	// Only n8n 2.41's durable poll cursors give a poll a budget of its own (5 minutes otherwise).
	(keeping === 'staged' ? test : test.skip)(
		'more ended waits than one poll may check: the rest wait for the next poll, each lead announced once, no poll past its budget',
		async () => {
			const budgetMs = 1_000;
			const trigger = pollTrigger(NOT_CONTACTED, { budgetMs });
			await trigger.poll();
			const leads = [];
			for (let i = 0; i < 8; i++) leads.push(await assignedChannelLead());
			await trigger.poll();
			advance(16 * MINUTE);
			ctx.sandbox.control.injectFaults({
				kind: 'delay',
				delayMs: 120,
				probability: 1,
				pathPrefix: '/v1/conversations',
			});
			const perPoll: number[] = [];
			for (let poll = 0; poll < 8 && trigger.executions.flat().length < leads.length; poll++) {
				const startedAt = Date.now();
				const { items, error } = await trigger.poll();
				expect(error).toBeUndefined();
				expect(Date.now() - startedAt).toBeLessThan(budgetMs);
				perPoll.push(items?.length ?? 0);
			}
			expect(perPoll.length).toBeGreaterThan(1);
			const announced = idsOf(trigger.executions.flat());
			expect(announced.sort()).toEqual(leads.map((lead) => lead.id).sort());
			expect((await trigger.poll()).items).toBeNull();
		},
	);
});
