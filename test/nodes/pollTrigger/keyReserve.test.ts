// New or Updated Lead leaves half of the key's minute to other work: a poll stops between pages
// when `X-RateLimit-Remaining` falls under 500, and the next poll continues the same pass.

import { patchLead } from '../../../harness/real-n8n/leadsMirror';
import { useSandbox } from '../../support/useSandbox';
import { describeEachKeeping, idsOf, requestsDuring } from './helpers';

const ctx = useSandbox();
const CHANGED = { event: 'leadChanged' };
const passOpen = (position: Record<string, unknown>) =>
	'pass' in ((position.changes ?? {}) as object);

describeEachKeeping(ctx, (pollTrigger) => {
	test('a poll stops at half of the key, says so, and the next continues the pass; no change lost', async () => {
		ctx.sandbox.control.reset({ leads: 700 });
		// 503 a minute: after the fourth page the key has 499 left, under the reserve of 500.
		ctx.sandbox.control.setRateLimit(503, 60_000);
		const trigger = pollTrigger(CHANGED);
		expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(4);
		expect(passOpen(trigger.position)).toBe(true);
		expect(trigger.logs.join('\n')).toMatch(
			/read 4 pages and stopped with 499 requests left on the key this minute, to leave 500 to other work/,
		);
		// Under the reserve already: one page per poll, so the pass still moves on.
		expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(1);

		ctx.sandbox.control.setRateLimit(1_000_000, 60_000);
		const leads = ctx.sandbox.control.state().leads;
		const changed = await patchLead(ctx.sandbox, String(leads[0].id), { status: 'lost' });
		const seen: unknown[] = [];
		for (let polls = 0; polls < 5; polls++) {
			const { items, error } = await trigger.poll();
			expect(error).toBeUndefined();
			seen.push(...idsOf(items));
			if (!passOpen(trigger.position)) break;
		}
		expect(passOpen(trigger.position)).toBe(false);
		// The baseline pass announces nothing; the next pass the change, once.
		const { items } = await trigger.poll();
		expect([...seen, ...idsOf(items)]).toEqual([changed.id]);
	}, 60_000);
});
