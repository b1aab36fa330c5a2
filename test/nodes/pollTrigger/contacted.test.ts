// Assigned Lead Contacted, through n8n's engine against the sandbox: the advisor's first message
// after the wait's start, however soon, on the service's clock; once per (lead, advisor).

import { useSandbox } from '../../support/useSandbox';
import { describeEachKeeping, idsOf, requestsDuring } from './helpers';
import {
	ADVISOR_A,
	ADVISOR_B,
	MINUTE,
	assign,
	leadWithOpenConversation,
	postAsAdvisor,
} from './notContactedHelpers';

const ctx = useSandbox();
const advance = (ms: number) => ctx.sandbox.control.advanceClock(ms);
const CONTACTED = { event: 'assignedContacted' };
const NOTICE = 'An advisor will contact you shortly';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachKeeping(ctx, (pollTrigger) => {
	describe('Assigned Lead Contacted', () => {
		test("an advisor's answer 5 s after the assignment: announced with 5 s; a notice at 5 s is not contact", async () => {
			const trigger = pollTrigger(CONTACTED);
			expect((await trigger.poll()).items).toBeNull();
			const answered = leadWithOpenConversation(ctx.sandbox, 0);
			const noticed = leadWithOpenConversation(ctx.sandbox, 1);
			const assigned = await assign(ctx.sandbox, answered.lead.id, ADVISOR_A);
			await assign(ctx.sandbox, noticed.lead.id, ADVISOR_B);
			await postAsAdvisor(ctx.sandbox, answered.conversation.id, NOTICE);
			advance(5_000);
			await postAsAdvisor(ctx.sandbox, answered.conversation.id, 'Ana here, calling you now.');
			await postAsAdvisor(ctx.sandbox, noticed.conversation.id, NOTICE);
			const { items } = await trigger.poll();
			const answer = ctx.sandbox.control
				.state()
				.conversations.find((c) => c.id === answered.conversation.id)!
				.messages.at(-1)!;
			const { lead } = answered;
			expect(items).toEqual([
				{
					id: lead.id,
					name: lead.name,
					phone: lead.phone,
					score: lead.score,
					intent: lead.intent,
					vehicle_interest: lead.vehicle_interest,
					channel: lead.channel,
					status: 'assigned',
					assigned_to: ADVISOR_A,
					event: 'lead.contacted',
					advisor: ADVISOR_A,
					waiting_since: assigned.updated_at,
					contacted_at: answer.created_at,
					response_seconds: 5,
					response_open_minutes: null,
					conversation_id: answered.conversation.id,
					conversation_channel: answered.conversation.channel,
					polled_at: expect.any(String),
				},
			]);
			advance(10 * MINUTE);
			expect((await trigger.poll()).items).toBeNull();
		});

		test('a notice and an answer in the same second: the answer is the contact', async () => {
			const trigger = pollTrigger(CONTACTED);
			await trigger.poll();
			const { lead, conversation } = leadWithOpenConversation(ctx.sandbox);
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			advance(5_000);
			await postAsAdvisor(ctx.sandbox, conversation.id, NOTICE);
			await postAsAdvisor(ctx.sandbox, conversation.id, 'Ana here. Are you free now?');
			const [item] = (await trigger.poll()).items!;
			expect(item).toMatchObject({ response_seconds: 5, advisor: ADVISOR_A });
			const stored = ctx.sandbox.control
				.state()
				.conversations.find((c) => c.id === conversation.id)!;
			expect(item.contacted_at).toBe(stored.messages.at(-1)!.created_at);
			expect(stored.messages.at(-2)!.content).toBe(NOTICE);
		});

		test('only the AI and the lead wrote: nothing; the advisor 3 h later: 10,800 s', async () => {
			const trigger = pollTrigger(CONTACTED);
			await trigger.poll();
			const { lead, conversation } = leadWithOpenConversation(ctx.sandbox);
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			advance(MINUTE);
			ctx.sandbox.control.addMessage(conversation.id, { sent_by: 'ai_agent' });
			ctx.sandbox.control.addMessage(conversation.id, { sent_by: 'lead' });
			expect((await trigger.poll()).items).toBeNull();
			advance(3 * 60 * MINUTE - MINUTE);
			await postAsAdvisor(ctx.sandbox, conversation.id, 'Sorry for the wait, Ana here.');
			expect((await trigger.poll()).items).toEqual([
				expect.objectContaining({ id: lead.id, response_seconds: 3 * 60 * 60 }),
			]);
		});

		test("a phone call's transcript is not contact", async () => {
			const trigger = pollTrigger(CONTACTED);
			await trigger.poll();
			const state = ctx.sandbox.control.state();
			const call = state.conversations.find(
				(c) =>
					c.channel === 'phone' &&
					c.organization_id === 'org_alpha' &&
					state.leads.some((l) => l.id === c.lead_id && l.status !== 'assigned'),
			)!;
			const lead = { id: call.lead_id };
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			advance(30_000);
			ctx.sandbox.control.addMessage(call.id, { sent_by: 'human', content: 'Ana here, hello' });
			expect((await trigger.poll()).items).toBeNull();
			expect(trigger.executions).toHaveLength(0);
		});

		test("n8n's clock 10 days behind the service: the response time is the service's", async () => {
			advance(10 * 24 * 60 * MINUTE);
			const trigger = pollTrigger(CONTACTED);
			await trigger.poll();
			const { lead, conversation } = leadWithOpenConversation(ctx.sandbox);
			const assigned = await assign(ctx.sandbox, lead.id, ADVISOR_A);
			await trigger.poll();
			advance(47_000);
			await postAsAdvisor(ctx.sandbox, conversation.id, 'Ana here.');
			const [item] = (await trigger.poll()).items!;
			expect(item).toMatchObject({ waiting_since: assigned.updated_at, response_seconds: 47 });
			expect(Date.parse(String(item.contacted_at)) - Date.now()).toBeGreaterThan(
				9 * 24 * 60 * MINUTE,
			);
			expect(Date.parse(String(item.polled_at))).toBeLessThan(Date.parse(assigned.updated_at));
		});

		test('with opening hours: the response also in open minutes, counting only while open', async () => {
			// To the next Wednesday 17:30 UTC on the service's clock; open Mon-Fri 09:00-18:00 UTC.
			const now = Date.parse(ctx.sandbox.control.clock().now);
			const target = new Date(now);
			target.setUTCHours(17, 30, 0, 0);
			while (target.getTime() <= now || target.getUTCDay() !== 3) {
				target.setUTCDate(target.getUTCDate() + 1);
			}
			advance(target.getTime() - now);
			const trigger = pollTrigger({
				...CONTACTED,
				countWait: 'openingHours',
				openingHours: 'Mon-Fri 09:00-18:00',
				timeZone: 'UTC',
			});
			await trigger.poll();
			const { lead, conversation } = leadWithOpenConversation(ctx.sandbox);
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			await trigger.poll();
			// Closed from 18:00 to 09:00 the next morning: 30 open minutes before, 10 after.
			advance((15 * 60 + 40) * MINUTE);
			await postAsAdvisor(ctx.sandbox, conversation.id, 'Good morning, Ana here.');
			const [item] = (await trigger.poll()).items!;
			expect(item.response_seconds).toBe((15 * 60 + 40) * 60);
			expect(Math.round(Number(item.response_open_minutes) * 60)).toBe(40 * 60);
		});

		test('around the clock (the default): response_open_minutes is null', async () => {
			const trigger = pollTrigger({ ...CONTACTED, countWait: 'aroundTheClock' });
			await trigger.poll();
			const { lead, conversation } = leadWithOpenConversation(ctx.sandbox);
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			advance(2 * MINUTE);
			await postAsAdvisor(ctx.sandbox, conversation.id, 'Ana here.');
			expect((await trigger.poll()).items).toEqual([
				expect.objectContaining({ response_seconds: 120, response_open_minutes: null }),
			]);
		});

		test('once per lead and advisor: across a restart, overlapping polls, and a hand-off back', async () => {
			const trigger = pollTrigger(CONTACTED);
			await trigger.poll();
			const { lead, conversation } = leadWithOpenConversation(ctx.sandbox);
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			advance(20_000);
			await postAsAdvisor(ctx.sandbox, conversation.id, 'Ana here.');
			ctx.sandbox.control.injectFaults({
				kind: 'delay',
				delayMs: 400,
				method: 'GET',
				probability: 1,
			});
			const first = trigger.poll();
			await pause(100);
			expect((await trigger.poll()).items).toBeNull();
			expect(idsOf((await first).items)).toEqual([lead.id]);
			ctx.sandbox.control.clearFaults();
			trigger.restart();
			advance(MINUTE);
			await postAsAdvisor(ctx.sandbox, conversation.id, 'Ana again.');
			expect((await trigger.poll()).items).toBeNull();
			// To B, who answers: B's own first contact. Back to A, who writes: never A again.
			await assign(ctx.sandbox, lead.id, ADVISOR_B);
			await trigger.poll();
			advance(90_000);
			await postAsAdvisor(ctx.sandbox, conversation.id, 'Bruno here.');
			trigger.restart();
			const [toB] = (await trigger.poll()).items!;
			expect(toB).toMatchObject({ advisor: ADVISOR_B, response_seconds: 90 });
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			await trigger.poll();
			advance(MINUTE);
			await postAsAdvisor(ctx.sandbox, conversation.id, 'Ana once more.');
			expect((await trigger.poll()).items).toBeNull();
			expect(trigger.executions.map((items) => items.map((i) => i.advisor))).toEqual([
				[ADVISOR_A],
				[ADVISOR_B],
			]);
		});

		test('leads already assigned at activation are never announced', async () => {
			const state = ctx.sandbox.control.state();
			const already = state.leads.find(
				(l) =>
					l.organization_id === 'org_alpha' &&
					l.status === 'assigned' &&
					state.conversations.some(
						(c) => c.lead_id === l.id && c.status === 'open' && c.channel !== 'phone',
					),
			)!;
			const conversation = state.conversations.find(
				(c) => c.lead_id === already.id && c.status === 'open' && c.channel !== 'phone',
			)!;
			const trigger = pollTrigger(CONTACTED);
			await trigger.poll();
			await postAsAdvisor(ctx.sandbox, conversation.id, 'Hello, advisor here.');
			advance(MINUTE);
			expect((await trigger.poll()).items).toBeNull();
		});

		test('the cost: ⌈A/100⌉ when no waiting lead moved; + its list and one conversation when one did', async () => {
			const trigger = pollTrigger(CONTACTED);
			await trigger.poll();
			const { lead, conversation } = leadWithOpenConversation(ctx.sandbox);
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			const assigned = ctx.sandbox.control
				.state()
				.leads.filter((l) => l.organization_id === 'org_alpha' && l.status === 'assigned').length;
			const pages = Math.ceil(assigned / 100);
			// The new wait is checked once (its assignment is activity); its conversations have no message since.
			expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(pages + 1);
			advance(MINUTE);
			expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(pages);
			ctx.sandbox.control.addMessage(conversation.id, { sent_by: 'ai_agent' });
			expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(pages + 2);
			expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(pages);
			await postAsAdvisor(ctx.sandbox, conversation.id, 'Ana here.');
			expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(pages + 2);
			expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(pages);
			expect(trigger.executions).toHaveLength(1);
		});

		test('Fetch Test Event: only contacts really made since the lead was assigned; nothing moves', async () => {
			const trigger = pollTrigger(CONTACTED);
			await trigger.poll();
			const position = trigger.position;
			const answered = leadWithOpenConversation(ctx.sandbox, 0);
			const silent = leadWithOpenConversation(ctx.sandbox, 1);
			await assign(ctx.sandbox, answered.lead.id, ADVISOR_A);
			await assign(ctx.sandbox, silent.lead.id, ADVISOR_B);
			advance(12_000);
			await postAsAdvisor(ctx.sandbox, answered.conversation.id, 'Ana here.');
			await postAsAdvisor(ctx.sandbox, silent.conversation.id, NOTICE);
			const { items, error } = await trigger.fetchTestEvent();
			expect(error).toBeUndefined();
			expect(items).toEqual([
				expect.objectContaining({ id: answered.lead.id, advisor: ADVISOR_A, response_seconds: 12 }),
			]);
			expect(trigger.position).toEqual(position);
			expect(trigger.executions).toHaveLength(0);
		});

		test('Fetch Test Event with only notices written: an error saying so, no item', async () => {
			const trigger = pollTrigger(CONTACTED);
			const { lead, conversation } = leadWithOpenConversation(ctx.sandbox);
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			advance(5_000);
			await postAsAdvisor(ctx.sandbox, conversation.id, NOTICE);
			const { items, error } = await trigger.fetchTestEvent();
			expect(items).toBeNull();
			expect(error?.message).toBe('No assigned lead has been reached by its advisor yet');
		});

		test.each([
			[42, /Workflow Notices must be text/],
			['Hi\nAn advisor will call', /Workflow Notices: "hi" is shorter than 8 characters/],
		])('Workflow Notices %j: an error naming the field, no request sent', async (value, answer) => {
			const trigger = pollTrigger({ ...CONTACTED, workflowNotices: value });
			for (const { error } of [await trigger.poll(), await trigger.fetchTestEvent()]) {
				expect(error?.message).toMatch(answer);
			}
			expect(ctx.sandbox.control.requests()).toEqual([]);
		});
	});
});
