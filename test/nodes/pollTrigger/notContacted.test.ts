// Assigned Lead Not Contacted, through n8n's engine against the sandbox, whose clock lets a
// 15-minute wait pass at once.

import { useSandbox } from '../../support/useSandbox';
import { describeEachKeeping, idsOf, requestsDuring } from './helpers';
import {
	ADVISOR_A,
	ADVISOR_B,
	MINUTE,
	NOT_CONTACTED,
	assign,
	leadWithOpenConversation,
	postAsAdvisor,
	waitsOf,
} from './notContactedHelpers';

const ctx = useSandbox();
const advance = (ms: number) => ctx.sandbox.control.advanceClock(ms);

describeEachKeeping(ctx, (pollTrigger) => {
	describe('Assigned Lead Not Contacted', () => {
		test('1 s after the wait ends with no message: announced once, with the lead and who let it wait', async () => {
			const trigger = pollTrigger(NOT_CONTACTED);
			expect((await trigger.poll()).items).toBeNull();
			const { lead } = leadWithOpenConversation(ctx.sandbox);
			const assigned = await assign(ctx.sandbox, lead.id, ADVISOR_A);
			expect((await trigger.poll()).items).toBeNull();
			advance(15 * MINUTE - 2_000);
			expect((await trigger.poll()).items).toBeNull();
			advance(3_000);
			const { items } = await trigger.poll();
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
					waiting_since: assigned.updated_at,
					wait_ended_at: new Date(Date.parse(assigned.updated_at) + 15 * MINUTE).toISOString(),
					open_minutes: 15,
					missed_by: [ADVISOR_A],
					misses: 1,
					event: 'lead.not_contacted',
					polled_at: expect.any(String),
				},
			]);
			expect((await trigger.poll()).items).toBeNull();
		});

		test('a human message 1 s before the wait ends: not announced, and not checked again', async () => {
			const trigger = pollTrigger(NOT_CONTACTED);
			await trigger.poll();
			const { lead, conversation } = leadWithOpenConversation(ctx.sandbox);
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			await trigger.poll();
			advance(15 * MINUTE - 1_000);
			await postAsAdvisor(ctx.sandbox, conversation.id, 'Hi, this is Ana from the dealership.');
			advance(2_000);
			expect((await trigger.poll()).items).toBeNull();
			expect(waitsOf(trigger)[lead.id][2]).toBe(1);
			advance(60 * MINUTE);
			expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(1);
			expect(trigger.executions).toHaveLength(0);
		});

		test('only the AI (and the lead) wrote after the assignment: announced', async () => {
			const trigger = pollTrigger(NOT_CONTACTED);
			await trigger.poll();
			const { lead, conversation } = leadWithOpenConversation(ctx.sandbox);
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			await trigger.poll();
			advance(5 * MINUTE);
			ctx.sandbox.control.addMessage(conversation.id, { sent_by: 'ai_agent' });
			ctx.sandbox.control.addMessage(conversation.id, { sent_by: 'lead' });
			advance(11 * MINUTE);
			expect(idsOf((await trigger.poll()).items)).toEqual([lead.id]);
		});

		test('the advisor closed the lead during the wait: not announced, and forgotten after 3 reads and 1 hour', async () => {
			const trigger = pollTrigger(NOT_CONTACTED);
			await trigger.poll();
			const { lead } = leadWithOpenConversation(ctx.sandbox);
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			await trigger.poll();
			advance(10 * MINUTE);
			await assign(ctx.sandbox, lead.id, ADVISOR_A, 'closed');
			advance(10 * MINUTE);
			expect((await trigger.poll()).items).toBeNull();
			expect(waitsOf(trigger)[lead.id]).toBeDefined();
			await trigger.poll();
			advance(60 * MINUTE);
			await trigger.poll();
			expect(waitsOf(trigger)[lead.id]).toBeUndefined();
			expect(trigger.executions).toHaveLength(0);
		});

		test("the examples' notices right after assigning are not contact; an answer 5 s in is", async () => {
			const trigger = pollTrigger(NOT_CONTACTED);
			await trigger.poll();
			const [first, second] = [0, 1].map((skip) => leadWithOpenConversation(ctx.sandbox, skip));
			for (const { lead, conversation } of [first, second]) {
				await assign(ctx.sandbox, lead.id, ADVISOR_A);
				await postAsAdvisor(ctx.sandbox, conversation.id, 'An advisor will contact you shortly');
			}
			advance(5_000);
			await postAsAdvisor(ctx.sandbox, second.conversation.id, 'Ana here, calling you now.');
			advance(60_000);
			const reroute = 'Thank you for waiting. Another advisor will contact you shortly.';
			await postAsAdvisor(ctx.sandbox, first.conversation.id, reroute);
			await trigger.poll();
			advance(16 * MINUTE);
			expect(idsOf((await trigger.poll()).items)).toEqual([first.lead.id]);
		});

		test('version 1 keeps its 60 s grace: a notice 65 s in is contact, an answer 5 s in is not', async () => {
			const trigger = pollTrigger(NOT_CONTACTED, { typeVersion: 1 });
			await trigger.poll();
			const [late, fast] = [0, 1].map((skip) => leadWithOpenConversation(ctx.sandbox, skip));
			for (const { lead } of [late, fast]) await assign(ctx.sandbox, lead.id, ADVISOR_A);
			advance(5_000);
			await postAsAdvisor(ctx.sandbox, fast.conversation.id, 'Ana here, calling you now.');
			advance(60_000);
			await postAsAdvisor(ctx.sandbox, late.conversation.id, 'An advisor will contact you shortly');
			await trigger.poll();
			advance(16 * MINUTE);
			expect(idsOf((await trigger.poll()).items)).toEqual([fast.lead.id]);
		});

		test('handed to a new advisor: a new wait, and missed_by names both', async () => {
			const trigger = pollTrigger(NOT_CONTACTED);
			await trigger.poll();
			const { lead } = leadWithOpenConversation(ctx.sandbox);
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			await trigger.poll();
			advance(16 * MINUTE);
			expect((await trigger.poll()).items![0]).toMatchObject({ missed_by: [ADVISOR_A], misses: 1 });
			const handedOn = await assign(ctx.sandbox, lead.id, ADVISOR_B);
			expect((await trigger.poll()).items).toBeNull();
			advance(14 * MINUTE);
			expect((await trigger.poll()).items).toBeNull();
			advance(2 * MINUTE);
			const [item] = (await trigger.poll()).items!;
			expect(item).toMatchObject({
				id: lead.id,
				assigned_to: ADVISOR_B,
				waiting_since: handedOn.updated_at,
				missed_by: [ADVISOR_A, ADVISOR_B],
				misses: 2,
			});
		});

		test('the same silent advisor never raises the same lead twice', async () => {
			const trigger = pollTrigger(NOT_CONTACTED);
			await trigger.poll();
			const { lead } = leadWithOpenConversation(ctx.sandbox);
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			await trigger.poll();
			for (const minutes of [16, 16, 60, 24 * 60, 7 * 24 * 60]) {
				advance(minutes * MINUTE);
				await trigger.poll();
			}
			// Handed on and back: A had its announcement for this lead.
			await assign(ctx.sandbox, lead.id, ADVISOR_B);
			await trigger.poll();
			await assign(ctx.sandbox, lead.id, ADVISOR_A);
			await trigger.poll();
			advance(60 * MINUTE);
			await trigger.poll();
			expect(trigger.executions.flat().map((item) => item.id)).toEqual([lead.id]);
		});

		test('n8n restarted during the wait: announced once, late, never twice', async () => {
			const trigger = pollTrigger(NOT_CONTACTED);
			await trigger.poll();
			const { lead } = leadWithOpenConversation(ctx.sandbox);
			const assigned = await assign(ctx.sandbox, lead.id, ADVISOR_A);
			await trigger.poll();
			advance(5 * MINUTE);
			trigger.restart();
			advance(3 * 60 * MINUTE);
			const { items } = await trigger.poll();
			expect(idsOf(items)).toEqual([lead.id]);
			expect(items![0].waiting_since).toBe(assigned.updated_at);
			expect((await trigger.poll()).items).toBeNull();
			trigger.restart();
			advance(60 * MINUTE);
			expect((await trigger.poll()).items).toBeNull();
			expect(trigger.executions).toHaveLength(1);
		});

		test('leads assigned before activation are only noted', async () => {
			const alreadyAssigned = ctx.sandbox.control
				.state()
				.leads.filter((l) => l.organization_id === 'org_alpha' && l.status === 'assigned');
			expect(alreadyAssigned.length).toBeGreaterThan(0);
			const trigger = pollTrigger(NOT_CONTACTED);
			expect((await trigger.poll()).items).toBeNull();
			advance(40 * 24 * 60 * MINUTE);
			expect((await trigger.poll()).items).toBeNull();
			expect(Object.keys(waitsOf(trigger)).sort()).toEqual(alreadyAssigned.map((l) => l.id).sort());
		});

		test.each([
			[{ waitAmount: 0, waitUnit: 'minutes' }, /Wait Amount/],
			[{ waitAmount: 0.5, waitUnit: 'minutes' }, /Wait Amount/],
			[{ waitAmount: 31, waitUnit: 'days' }, /Wait Amount/],
			[{ waitAmount: 721, waitUnit: 'hours' }, /Wait Amount/],
			[{ waitAmount: 15, waitUnit: 'weeks' }, /Wait Unit/],
		])('a wait of %j: an error naming the field, no request sent', async (wait, field) => {
			const trigger = pollTrigger({ ...NOT_CONTACTED, ...wait });
			const scheduled = await trigger.poll();
			const manual = await trigger.fetchTestEvent();
			for (const { error } of [scheduled, manual]) expect(error?.message).toMatch(field);
			expect(ctx.sandbox.control.requests()).toEqual([]);
		});

		test('a wait of exactly 1 minute and of exactly 30 days is accepted', async () => {
			for (const wait of [
				{ waitAmount: 1, waitUnit: 'minutes' },
				{ waitAmount: 30, waitUnit: 'days' },
			]) {
				expect((await pollTrigger({ ...NOT_CONTACTED, ...wait }).poll()).error).toBeUndefined();
			}
		});

		test('the Date header is what counts: n8n ten days behind the service changes nothing', async () => {
			advance(10 * 24 * 60 * MINUTE);
			const trigger = pollTrigger(NOT_CONTACTED);
			await trigger.poll();
			const { lead } = leadWithOpenConversation(ctx.sandbox);
			const assigned = await assign(ctx.sandbox, lead.id, ADVISOR_A);
			expect(Date.parse(assigned.updated_at) - Date.now()).toBeGreaterThan(9 * 24 * 60 * MINUTE);
			await trigger.poll();
			advance(14 * MINUTE);
			expect((await trigger.poll()).items).toBeNull();
			advance(2 * MINUTE);
			const { items } = await trigger.poll();
			expect(idsOf(items)).toEqual([lead.id]);
			// polled_at is n8n's own time; the wait is the service's.
			expect(Date.parse(String(items![0].polled_at))).toBeLessThan(Date.parse(assigned.updated_at));
		});
	});
});
