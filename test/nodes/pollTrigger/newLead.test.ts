// The polling trigger's New Lead event through n8n's poll engine against the sandbox.

import { useSandbox } from '../../support/useSandbox';
import { NEW_LEAD, idsOf, requestsDuring, describeEachKeeping } from './helpers';

const ctx = useSandbox();

describeEachKeeping(ctx, (pollTrigger) => {
	describe('New Lead', () => {
		test('the first poll after activation sets the baseline and starts nothing', async () => {
			const before = ctx.sandbox.control.createChannelLead();
			const trigger = pollTrigger(NEW_LEAD);
			expect(await trigger.poll()).toEqual({ items: null });
			expect(trigger.position).toMatchObject({
				newLeads: { mark: before.created_at, atMark: [before.id] },
			});

			const lead = ctx.sandbox.control.createChannelLead();
			expect(idsOf((await trigger.poll()).items)).toEqual([lead.id]);
			expect(trigger.executions).toHaveLength(1);
		});

		test('Fetch Test Event returns the newest leads and changes no position', async () => {
			const trigger = pollTrigger(NEW_LEAD);
			await trigger.poll();
			const stored = trigger.position;
			const newest = [1, 2, 3, 4].map(() => ctx.sandbox.control.createChannelLead());

			const test = await trigger.fetchTestEvent();
			expect(test.error).toBeUndefined();
			expect(test.items).toHaveLength(3);
			for (const item of test.items!) {
				expect(newest.map((lead) => lead.id)).toContain(item.id);
				expect(item).toMatchObject({ event: 'lead.created' });
			}
			expect(trigger.position).toEqual(stored);
			expect(trigger.executions).toHaveLength(0);

			expect(idsOf((await trigger.poll()).items).sort()).toEqual(newest.map((l) => l.id).sort());
		});

		test('each new lead starts one execution across polls and n8n restarts', async () => {
			const trigger = pollTrigger(NEW_LEAD);
			await trigger.poll();
			const first = [
				ctx.sandbox.control.createChannelLead(),
				ctx.sandbox.control.createChannelLead(),
			];
			expect(idsOf((await trigger.poll()).items).sort()).toEqual(
				first.map((lead) => lead.id).sort(),
			);
			expect((await trigger.poll()).items).toBeNull();
			trigger.restart();
			expect((await trigger.poll()).items).toBeNull();
			const later = ctx.sandbox.control.createChannelLead();
			trigger.restart();
			expect(idsOf((await trigger.poll()).items)).toEqual([later.id]);
			expect(
				trigger.executions
					.flat()
					.map((item) => item.id)
					.sort(),
			).toEqual([...first.map((lead) => lead.id), later.id].sort());
		});

		test('a lead created in the same millisecond as the mark starts one execution, the lead at the mark none', async () => {
			const trigger = pollTrigger(NEW_LEAD);
			await trigger.poll();
			const atMark = ctx.sandbox.control.createChannelLead();
			expect(idsOf((await trigger.poll()).items)).toEqual([atMark.id]);
			const twin = ctx.sandbox.control.createChannelLead({ created_at: atMark.created_at });
			expect(twin.created_at).toBe(atMark.created_at);
			expect(idsOf((await trigger.poll()).items)).toEqual([twin.id]);
			expect((await trigger.poll()).items).toBeNull();
			expect(trigger.position).toMatchObject({ newLeads: { atMark: [atMark.id, twin.id] } });
		});

		test('a poll that fails half-way starts nothing and moves nothing; the next starts each lead once', async () => {
			const trigger = pollTrigger(NEW_LEAD);
			await trigger.poll();
			const stored = trigger.position;
			const leads = Array.from({ length: 150 }, () => ctx.sandbox.control.createChannelLead());
			// The second page's request is refused (an expired cursor), after the first page was read.
			ctx.sandbox.control.injectFaults({ kind: 'badCursor', pathPrefix: '/v1/leads' });

			const failed = await trigger.poll();
			expect(failed.error?.message).toMatch(/400|cursor/i);
			expect(failed.items).toBeNull();
			expect(trigger.position).toEqual(stored);

			const next = await trigger.poll();
			expect(idsOf(next.items).sort()).toEqual(leads.map((lead) => lead.id).sort());
			expect(trigger.executions).toHaveLength(1);
			expect((await trigger.poll()).items).toBeNull();
		});

		test('an idle poll costs one request, a poll with 150 new leads two', async () => {
			const trigger = pollTrigger(NEW_LEAD);
			await trigger.poll();
			expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(1);
			for (let i = 0; i < 150; i++) {
				// A later millisecond for the last 50, so fewer than a page share the mark's.
				if (i === 100) await new Promise((resolve) => setTimeout(resolve, 2));
				ctx.sandbox.control.createChannelLead();
			}
			expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(2);
			expect(trigger.executions[0]).toHaveLength(150);
			expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(1);
		});

		test('items carry the fields of lead.created, the event name and the poll time', async () => {
			const trigger = pollTrigger(NEW_LEAD);
			await trigger.poll();
			const lead = ctx.sandbox.control.createChannelLead({
				channel: 'web_form',
				vehicle_interest: 'SUV',
			});
			const [item] = (await trigger.poll()).items!;
			expect(Object.keys(item).sort()).toEqual(
				[
					'channel',
					'event',
					'id',
					'intent',
					'name',
					'phone',
					'polled_at',
					'score',
					'status',
					'vehicle_interest',
				].sort(),
			);
			expect(item).toMatchObject({ id: lead.id, channel: 'web_form', vehicle_interest: 'SUV' });
			expect(Date.parse(String(item.polled_at))).not.toBeNaN();
		});
	});
});
