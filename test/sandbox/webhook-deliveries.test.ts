// Delivering events (signatures, retries, time-outs and the delivery log).

import { call, ISO_Z, keysOf, type Receiver, startReceiver, useService, verify } from './helpers';

const LEAD_EVENT_FIELDS = [
	'channel',
	'id',
	'intent',
	'name',
	'phone',
	'score',
	'status',
	'vehicle_interest',
];

describe('webhook deliveries', () => {
	const ctx = useService({ allowHttpWebhooks: true, retryScale: 0.001, deliveryTimeoutMs: 300 });
	let receiver: Receiver | undefined;
	beforeEach(() => {
		ctx.sandbox.control.reset();
		ctx.sandbox.control.setOptions({ retryScale: 0.001 });
	});
	afterEach(async () => {
		await receiver?.close();
		receiver = undefined;
	});

	async function subscribe(events: string[], key = ctx.sandbox.keys.full) {
		const res = await call(ctx.sandbox, 'POST', '/webhooks', {
			key,
			body: { url: receiver!.url, events },
		});
		expect(res.status).toBe(201);
		return res.body as { id: string; secret: string };
	}

	it('never sends a delivery off the machine: a non-loopback subscriber is recorded as failed', async () => {
		const created = await call(ctx.sandbox, 'POST', '/webhooks', {
			body: { url: 'https://hooks.example.com/in', events: ['lead.created'] },
		});
		expect(created.status).toBe(201);
		await call(ctx.sandbox, 'POST', '/leads', {
			body: { name: 'Far Away', phone: '+5215512345679' },
		});
		await ctx.sandbox.control.whenDeliveriesSettled();
		const log = ctx.sandbox.control.deliveries();
		expect(log.length).toBeGreaterThan(0);
		for (const entry of log) {
			expect(entry.ok).toBe(false);
			expect(entry.error).toMatch(/not a loopback address/);
		}
	});

	it('delivers lead.created signed with the subscription secret', async () => {
		receiver = await startReceiver();
		const subscription = await subscribe(['lead.created']);
		const lead = await call(ctx.sandbox, 'POST', '/leads', {
			body: { name: 'Hook Lead', phone: '+5215512345678', notes: 'secret note' },
		});
		const [delivery] = await receiver.waitFor(1);
		expect(delivery.headers['content-type']).toBe('application/json');
		expect(
			verify(delivery.body, delivery.headers['x-service-signature'], subscription.secret),
		).toBe(true);
		const payload = JSON.parse(delivery.body.toString());
		expect(keysOf(payload)).toEqual(['data', 'event', 'organization_id', 'timestamp']);
		expect(payload).toMatchObject({ event: 'lead.created', organization_id: 'org_alpha' });
		expect(payload.timestamp).toMatch(ISO_Z);
		expect(keysOf(payload.data)).toEqual(LEAD_EVENT_FIELDS);
		expect(payload.data).toMatchObject({
			id: lead.body.id,
			name: 'Hook Lead',
			score: 0,
			status: 'new',
			channel: 'api',
		});
		expect(delivery.body.toString()).not.toContain('secret note');

		await ctx.sandbox.control.whenDeliveriesSettled();
		const log = ctx.sandbox.control.deliveries();
		expect(log).toHaveLength(1);
		expect(log[0]).toMatchObject({
			subscriptionId: subscription.id,
			url: receiver.url,
			event: 'lead.created',
			attempt: 1,
			status: 200,
			ok: true,
			body: delivery.body.toString(),
			signature: delivery.headers['x-service-signature'],
		});
	});

	it('delivers lead.qualified and lead.assigned on PATCH, only to matching subscriptions', async () => {
		receiver = await startReceiver();
		await subscribe(['lead.qualified', 'lead.assigned']);
		const lead = (
			await call(ctx.sandbox, 'POST', '/leads', { body: { name: 'Q', phone: '+14155550111' } })
		).body;
		await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, { body: { status: 'qualified' } });
		await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, {
			body: { status: 'qualified', notes: 'again' },
		});
		await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, { body: { assigned_to: 'user_7' } });
		// A reassignment is not "becomes non-null"; after unassigning, assigning counts again.
		await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, { body: { assigned_to: 'user_8' } });
		await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, { body: { assigned_to: null } });
		await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, { body: { assigned_to: 'user_9' } });
		await ctx.sandbox.control.whenDeliveriesSettled();
		const events = receiver.received
			.map((r) => JSON.parse(r.body.toString()))
			.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
		expect(events.map((e) => e.event)).toEqual([
			'lead.qualified',
			'lead.assigned',
			'lead.assigned',
		]);
		expect(events[2].data.assigned_to).toBe('user_9');
		expect(keysOf(events[0].data)).toEqual(LEAD_EVENT_FIELDS);
		expect(events[0].data).toMatchObject({ id: lead.id, status: 'qualified' });
		expect(keysOf(events[1].data)).toEqual([...LEAD_EVENT_FIELDS, 'assigned_to'].sort());
		expect(events[1].data.assigned_to).toBe('user_7');
	});

	it('emits every event type from the control helpers to a "*" subscription', async () => {
		receiver = await startReceiver();
		await subscribe(['*']);
		const lead = ctx.sandbox.control.createChannelLead({ name: 'From Chat', channel: 'chat_app' });
		expect(lead.channel).toBe('chat_app');
		const qualified = ctx.sandbox.control.qualifyLead(lead.id, 92);
		expect(qualified).toMatchObject({ score: 92, intent: 'purchase_30_days', status: 'qualified' });
		const appointment = ctx.sandbox.control.bookAppointment(lead.id);
		const conversation = ctx.sandbox.control
			.state()
			.conversations.find((c) => c.organization_id === 'org_alpha' && c.status === 'open')!;
		ctx.sandbox.control.reachMilestone(conversation.id, 'budget_identified');
		ctx.sandbox.control.changeConversationStatus(conversation.id, 'transferred');
		ctx.sandbox.control.changeConversationStatus(conversation.id, 'transferred');
		await receiver.waitFor(5);
		await ctx.sandbox.control.whenDeliveriesSettled();
		const events = receiver.received.map((r) => JSON.parse(r.body.toString()));
		expect(events.map((e) => e.event).sort()).toEqual(
			[
				'appointment.booked',
				'conversation.milestone',
				'conversation.status_changed',
				'lead.created',
				'lead.qualified',
			].sort(),
		);
		const byName = Object.fromEntries(events.map((e) => [e.event, e.data]));
		expect(byName['lead.created']).toMatchObject({ id: lead.id, channel: 'chat_app' });
		expect(byName['lead.qualified']).toMatchObject({
			id: lead.id,
			score: 92,
			intent: 'purchase_30_days',
			status: 'qualified',
		});
		expect(byName['appointment.booked']).toEqual({
			id: appointment.id,
			lead_id: lead.id,
			scheduled_at: appointment.scheduled_at,
			location: appointment.location,
		});
		expect(appointment.id).toMatch(/^appt_/);
		expect(byName['conversation.milestone']).toEqual({
			id: conversation.id,
			lead_id: conversation.lead_id,
			milestone: 'budget_identified',
		});
		expect(byName['conversation.status_changed']).toEqual({
			id: conversation.id,
			lead_id: conversation.lead_id,
			channel: conversation.channel,
			status: 'transferred',
			previous_status: 'open',
		});
		// The change is visible through the interface too.
		expect((await call(ctx.sandbox, 'GET', `/conversations/${conversation.id}`)).body.status).toBe(
			'transferred',
		);
	});

	it("does not deliver one organization's events to another's subscribers", async () => {
		receiver = await startReceiver();
		await subscribe(['*'], ctx.sandbox.keys.otherOrganization);
		await call(ctx.sandbox, 'POST', '/leads', {
			body: { name: 'Alpha only', phone: '+14155550112' },
		});
		await ctx.sandbox.control.whenDeliveriesSettled();
		expect(receiver.received).toHaveLength(0);
		await call(ctx.sandbox, 'POST', '/leads', {
			key: ctx.sandbox.keys.otherOrganization,
			body: { name: 'Beta', phone: '+14155550113' },
		});
		const [delivery] = await receiver.waitFor(1);
		expect(JSON.parse(delivery.body.toString()).organization_id).toBe('org_beta');
	});

	it('retries a failed delivery on the scaled schedule with the same body and signature', async () => {
		receiver = await startReceiver({ respond: (n) => (n < 3 ? 500 : 204) });
		const subscription = await subscribe(['lead.created']);
		await call(ctx.sandbox, 'POST', '/leads', { body: { name: 'Retry', phone: '+14155550114' } });
		await receiver.waitFor(3);
		await ctx.sandbox.control.whenDeliveriesSettled();
		const [first, second, third] = receiver.received;
		expect(receiver.received).toHaveLength(3);
		expect(second.body.equals(first.body)).toBe(true);
		expect(third.body.equals(first.body)).toBe(true);
		expect(second.headers['x-service-signature']).toBe(first.headers['x-service-signature']);
		expect(third.headers['x-service-signature']).toBe(first.headers['x-service-signature']);
		expect(verify(third.body, third.headers['x-service-signature'], subscription.secret)).toBe(
			true,
		);
		// About 1 and 5 minutes after the first failure, times 0.001: 60 ms and 300 ms.
		expect(second.at - first.at).toBeGreaterThanOrEqual(55);
		expect(third.at - first.at).toBeGreaterThanOrEqual(290);
		expect(third.at - first.at).toBeLessThan(1500);
		const log = ctx.sandbox.control.deliveries();
		expect(log.map((e) => [e.attempt, e.status, e.ok])).toEqual([
			[1, 500, false],
			[2, 500, false],
			[3, 204, true],
		]);
		expect(new Set(log.map((e) => e.deliveryId)).size).toBe(1);
	});

	it('gives up after three retries, counting time-outs as failures', async () => {
		receiver = await startReceiver({ respond: (n) => (n === 1 ? 0 : 503) });
		ctx.sandbox.control.setOptions({ retryScale: 0.0002 });
		await subscribe(['lead.created']);
		await call(ctx.sandbox, 'POST', '/leads', { body: { name: 'Never', phone: '+14155550115' } });
		await ctx.sandbox.control.whenDeliveriesSettled();
		const log = ctx.sandbox.control.deliveries();
		expect(log.map((e) => e.attempt)).toEqual([1, 2, 3, 4]);
		expect(log[0].error).toMatch(/timeout/);
		expect(log[0].status).toBeUndefined();
		expect(log.slice(1).map((e) => e.status)).toEqual([503, 503, 503]);
		expect(log.every((e) => !e.ok)).toBe(true);
		// 30 minutes times 0.0002 after the first failure (which came with the 300 ms time-out).
		expect(log[3].at - log[0].at).toBeGreaterThanOrEqual(300 + 360);
		expect(receiver.received).toHaveLength(4);
	});

	it('does not retry after a 2xx answer', async () => {
		receiver = await startReceiver({ respond: () => 202 });
		await subscribe(['lead.created']);
		await call(ctx.sandbox, 'POST', '/leads', { body: { name: 'Once', phone: '+14155550116' } });
		await ctx.sandbox.control.whenDeliveriesSettled();
		await new Promise((resolve) => setTimeout(resolve, 150));
		expect(receiver.received).toHaveLength(1);
		expect(ctx.sandbox.control.deliveries()).toHaveLength(1);
	});

	it('records unreachable receivers as failed attempts', async () => {
		receiver = await startReceiver();
		await subscribe(['lead.created']);
		await receiver.close();
		ctx.sandbox.control.setOptions({ retryScale: 0.0002 });
		await call(ctx.sandbox, 'POST', '/leads', {
			body: { name: 'Unreachable', phone: '+14155550117' },
		});
		await ctx.sandbox.control.whenDeliveriesSettled();
		const log = ctx.sandbox.control.deliveries();
		expect(log).toHaveLength(4);
		expect(log[0].error).toBeDefined();
		receiver = undefined;
	});

	it('sends raw bytes to a subscriber on request', async () => {
		receiver = await startReceiver();
		const subscription = await subscribe(['lead.created']);
		const bytes = Buffer.from([0x7b, 0xff, 0x00, 0x7d]);
		const result = await ctx.sandbox.control.deliverRaw(subscription.id, bytes);
		expect(result).toMatchObject({ ok: true, status: 200 });
		expect(receiver.received[0].body.equals(bytes)).toBe(true);
		expect(
			verify(bytes, receiver.received[0].headers['x-service-signature'], subscription.secret),
		).toBe(true);
		await ctx.sandbox.control.deliverRaw(subscription.id, '{}', {
			'X-Service-Signature': 'forged',
		});
		expect(receiver.received[1].headers['x-service-signature']).toBe('forged');
	});
});
