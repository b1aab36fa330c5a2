import { call, useService } from './helpers';

const ctx = useService();

describe('a lead writing on a channel', () => {
	it('opens one open conversation, listed by lead_id, that an advisor can answer', async () => {
		const lead = ctx.sandbox.control.createChannelLead({ channel: 'social_a' });
		const opened = ctx.sandbox.control.leadWrites(lead.id, { content: 'Is the SUV available?' });
		expect(opened).toMatchObject({ lead_id: lead.id, channel: 'social_a', status: 'open' });
		expect(opened.messages).toEqual([
			expect.objectContaining({
				sent_by: 'lead',
				direction: 'inbound',
				content: 'Is the SUV available?',
			}),
		]);
		const again = ctx.sandbox.control.leadWrites(lead.id);
		expect(again.id).toBe(opened.id);
		expect(again.messages).toHaveLength(2);

		const listed = await call(ctx.sandbox, 'GET', `/conversations?lead_id=${lead.id}`);
		expect((listed.body as { data: Array<{ id: string }> }).data.map((c) => c.id)).toEqual([
			opened.id,
		]);
		const answer = await call(ctx.sandbox, 'POST', `/conversations/${opened.id}/messages`, {
			body: { content: 'Yes, I can call you now' },
		});
		expect(answer.status).toBe(201);
	});

	it('uses chat_app for a lead whose channel holds no conversations, and refuses an unknown channel', () => {
		const lead = ctx.sandbox.control.createChannelLead({ channel: 'web_form' });
		expect(ctx.sandbox.control.leadWrites(lead.id).channel).toBe('chat_app');
		expect(() => ctx.sandbox.control.leadWrites(lead.id, { channel: 'fax' })).toThrow(/channel/);
	});

	it('is reachable over the control interface', async () => {
		const lead = ctx.sandbox.control.createChannelLead();
		const res = await fetch(`${ctx.sandbox.controlUrl}/leads/${lead.id}/writes`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ content: 'Hi' }),
		});
		expect(res.status).toBe(200);
		expect(((await res.json()) as { lead_id: string }).lead_id).toBe(lead.id);
	});
});
