// n8n starts a poll at every Poll Times entry without waiting for the one before. Two polls of one
// node at once in one process: the second starts nothing and reads nothing, so the changes are
// announced once; another node's poll is not held up.

import { useSandbox } from '../../support/useSandbox';
import { NEW_LEAD, describeEachKeeping, idsOf, requestsDuring } from './helpers';

const ctx = useSandbox({ leads: 5 });

const slowReads = () =>
	ctx.sandbox.control.injectFaults({ kind: 'delay', delayMs: 600, method: 'GET', probability: 1 });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachKeeping(ctx, (pollTrigger) => {
	afterEach(() => ctx.sandbox.control.clearFaults());

	test('a poll that finds the previous one of its node running starts nothing; the next one runs', async () => {
		const trigger = pollTrigger(NEW_LEAD);
		await trigger.poll();
		const lead = ctx.sandbox.control.createChannelLead();
		slowReads();
		let second: Awaited<ReturnType<typeof trigger.poll>> | undefined;
		const requests = await requestsDuring(ctx.sandbox, async () => {
			const first = trigger.poll();
			await pause(150);
			second = await trigger.poll();
			expect(idsOf((await first).items)).toEqual([lead.id]);
		});
		expect(second).toEqual({ items: null });
		// An idle New Lead poll is one request: the second poll sent none of its own.
		expect(requests).toBe(1);
		ctx.sandbox.control.clearFaults();
		expect((await trigger.poll()).items).toBeNull();
		expect(trigger.executions.map(idsOf)).toEqual([[lead.id]]);
	});

	test("another node's poll is not held up by this one's", async () => {
		const one = pollTrigger(NEW_LEAD);
		const other = pollTrigger(NEW_LEAD);
		await one.poll();
		await other.poll();
		const lead = ctx.sandbox.control.createChannelLead();
		slowReads();
		const first = one.poll();
		await pause(150);
		expect(idsOf((await other.poll()).items)).toEqual([lead.id]);
		expect(idsOf((await first).items)).toEqual([lead.id]);
	});
});
