import { call, useService } from './helpers';

const ctx = useService();

describe('a channel lead with a given creation time', () => {
	it('keeps that created_at, lists in created_at order and matches created_after "on or after"', async () => {
		const first = ctx.sandbox.control.createChannelLead();
		const twin = ctx.sandbox.control.createChannelLead({ created_at: first.created_at });
		expect(twin.created_at).toBe(first.created_at);
		expect(twin.updated_at).toBe(first.created_at);

		const listed = await call(ctx.sandbox, 'GET', `/leads?created_after=${first.created_at}`);
		expect(listed.status).toBe(200);
		const ids = (listed.body as { data: Array<{ id: string }> }).data.map((lead) => lead.id);
		expect(ids.sort()).toEqual([first.id, twin.id].sort());
	});

	it('refuses a creation time that is not a date', () => {
		expect(() => ctx.sandbox.control.createChannelLead({ created_at: 'yesterday' })).toThrow(
			/created_at/,
		);
	});

	it('takes the creation time over the control interface too', async () => {
		const res = await fetch(`${ctx.sandbox.controlUrl}/channel-leads`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ created_at: '2026-01-02T03:04:05.678Z' }),
		});
		expect(res.status).toBe(200);
		expect(((await res.json()) as { created_at: string }).created_at).toBe(
			'2026-01-02T03:04:05.678Z',
		);
	});
});
