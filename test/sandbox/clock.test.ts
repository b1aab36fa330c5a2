// The service's clock: advanceClock moves the Date header and every time the sandbox writes;
// rate-limit windows stay on real time.

import { call, start, startReceiver, useService } from './helpers';

const ctx = useService({ allowHttpWebhooks: true });

const HOUR = 60 * 60_000;
const dateOf = (headers: Headers) => Date.parse(headers.get('date') ?? '');

function alphaLead(status: string) {
	return ctx.sandbox.control
		.state()
		.leads.find((lead) => lead.organization_id === 'org_alpha' && lead.status === status)!;
}

function openConversation() {
	return ctx.sandbox.control
		.state()
		.conversations.find(
			(conversation) =>
				conversation.organization_id === 'org_alpha' &&
				conversation.status === 'open' &&
				conversation.channel !== 'phone',
		)!;
}

describe('the service clock', () => {
	it('every answer carries a Date header from the service clock: success, error, 401, 404, control', async () => {
		ctx.sandbox.control.advanceClock(3 * HOUR);
		const expected = Date.now() + 3 * HOUR;
		const answers = [
			await call(ctx.sandbox, 'GET', '/leads?limit=1'),
			await call(ctx.sandbox, 'GET', '/leads?limit=0'),
			await call(ctx.sandbox, 'GET', '/leads', { key: null }),
			await call(ctx.sandbox, 'GET', '/nowhere'),
		];
		expect(answers.map((answer) => answer.status)).toEqual([200, 400, 401, 404]);
		const control = await fetch(`${ctx.sandbox.controlUrl}/keys`);
		for (const headers of [...answers.map((answer) => answer.headers), control.headers]) {
			expect(headers.get('date')).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
			// Whole seconds: at most one second (plus the time of the calls) before the clock.
			expect(Math.abs(dateOf(headers) - expected)).toBeLessThan(5_000);
		}
	});

	it('the Date header follows the clock without any advance too', async () => {
		const before = Date.now();
		const { headers } = await call(ctx.sandbox, 'GET', '/agents');
		expect(dateOf(headers)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
		expect(dateOf(headers)).toBeLessThanOrEqual(Date.now());
		expect(ctx.sandbox.control.clock().offsetMs).toBe(0);
	});

	it('created_at, updated_at, last_activity_at, last_message_at and message created_at follow it', async () => {
		const { now } = ctx.sandbox.control.advanceClock(24 * HOUR);
		const shifted = Date.parse(now);
		expect(shifted - Date.now()).toBeGreaterThan(24 * HOUR - 5_000);
		const near = (iso: string) => Math.abs(Date.parse(iso) - shifted) < 5_000;

		const created = await call(ctx.sandbox, 'POST', '/leads', {
			body: { name: 'Clock Lead', phone: '+5491155550000' },
		});
		expect(near(created.body.created_at)).toBe(true);
		expect(near(created.body.last_activity_at)).toBe(true);

		const lead = alphaLead('qualified');
		const patched = await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, {
			body: { status: 'assigned', assigned_to: 'user_clock' },
		});
		expect(near(patched.body.updated_at)).toBe(true);
		expect(near(patched.body.last_activity_at)).toBe(true);

		const conversation = openConversation();
		const message = await call(ctx.sandbox, 'POST', `/conversations/${conversation.id}/messages`, {
			body: { content: 'Hello' },
		});
		expect(message.status).toBe(201);
		expect(near(message.body.created_at)).toBe(true);
		const read = await call(ctx.sandbox, 'GET', `/conversations/${conversation.id}`);
		expect(near(read.body.last_message_at)).toBe(true);
		expect(near(read.body.updated_at)).toBe(true);

		expect(near(ctx.sandbox.control.createChannelLead().created_at)).toBe(true);
		expect(near(ctx.sandbox.control.qualifyLead(alphaLead('new').id).updated_at)).toBe(true);
		const appointment = ctx.sandbox.control.bookAppointment(lead.id);
		expect(near(appointment.created_at)).toBe(true);
	});

	it('a later advance moves the times again; a message written after it is later than one before', async () => {
		const conversation = openConversation();
		const post = async () =>
			(
				await call(ctx.sandbox, 'POST', `/conversations/${conversation.id}/messages`, {
					body: { content: 'Again' },
				})
			).body.created_at as string;
		const first = await post();
		ctx.sandbox.control.advanceClock(15 * 60_000);
		const second = await post();
		expect(Date.parse(second) - Date.parse(first)).toBeGreaterThanOrEqual(15 * 60_000);
		expect(Date.parse(second) - Date.parse(first)).toBeLessThan(15 * 60_000 + 5_000);
	});

	it('webhook payload timestamps follow it', async () => {
		const receiver = await startReceiver();
		try {
			await call(ctx.sandbox, 'POST', '/webhooks', {
				body: { url: receiver.url, events: ['lead.created'] },
			});
			ctx.sandbox.control.advanceClock(48 * HOUR);
			ctx.sandbox.control.createChannelLead();
			const [delivery] = await receiver.waitFor(1);
			const timestamp = Date.parse(JSON.parse(delivery.body.toString()).timestamp);
			expect(timestamp - Date.now()).toBeGreaterThan(48 * HOUR - 5_000);
		} finally {
			await receiver.close();
		}
	});

	it('rate-limit windows stay on real time: an advance does not open a new window', async () => {
		ctx.sandbox.control.setRateLimit(2, 60_000);
		try {
			await call(ctx.sandbox, 'GET', '/agents');
			await call(ctx.sandbox, 'GET', '/agents');
			ctx.sandbox.control.advanceClock(2 * HOUR);
			const third = await call(ctx.sandbox, 'GET', '/agents');
			expect(third.status).toBe(429);
			const reset = Number(third.headers.get('x-ratelimit-reset')) * 1000;
			expect(reset - Date.now()).toBeLessThanOrEqual(61_000);
		} finally {
			ctx.sandbox.control.setRateLimit(1_000, 60_000);
		}
	});

	it('refuses a negative, fractional or huge advance; reset returns to real time', () => {
		for (const ms of [-1, 1.5, Number.NaN, 400 * 24 * HOUR]) {
			expect(() => ctx.sandbox.control.advanceClock(ms)).toThrow(/ms/);
		}
		ctx.sandbox.control.advanceClock(HOUR);
		expect(ctx.sandbox.control.clock().offsetMs).toBe(HOUR);
		ctx.sandbox.control.reset();
		expect(ctx.sandbox.control.clock().offsetMs).toBe(0);
	});

	it('over HTTP: POST /control/clock/advance and GET /control/clock', async () => {
		const advance = await fetch(`${ctx.sandbox.controlUrl}/clock/advance`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ ms: 15 * 60_000 }),
		});
		expect(advance.status).toBe(200);
		const body = (await advance.json()) as { now: string; offsetMs: number };
		expect(body.offsetMs).toBe(15 * 60_000);
		expect(dateOf(advance.headers)).toBeGreaterThan(Date.now() + 14 * 60_000);
		const read = (await (await fetch(`${ctx.sandbox.controlUrl}/clock`)).json()) as {
			offsetMs: number;
		};
		expect(read.offsetMs).toBe(15 * 60_000);
		const refused = await fetch(`${ctx.sandbox.controlUrl}/clock/advance`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ ms: 'soon' }),
		});
		expect(refused.status).toBe(400);
		expect(((await refused.json()) as { message: string }).message).toMatch(/^ms:/);
	});

	it('addMessage: an AI, lead or human message dated on the clock, shown by GET /conversations/{id}', async () => {
		const conversation = openConversation();
		ctx.sandbox.control.advanceClock(2 * HOUR);
		const ai = ctx.sandbox.control.addMessage(conversation.id, { sent_by: 'ai_agent' });
		const lead = ctx.sandbox.control.addMessage(conversation.id, {
			sent_by: 'lead',
			content: 'Is it still available?',
		});
		expect(ai).toMatchObject({ sent_by: 'ai_agent', direction: 'outbound', type: 'text' });
		expect(lead).toMatchObject({ sent_by: 'lead', direction: 'inbound' });
		expect(Date.parse(ai.created_at) - Date.now()).toBeGreaterThan(2 * HOUR - 5_000);
		const read = await call(ctx.sandbox, 'GET', `/conversations/${conversation.id}`);
		expect(read.body.messages.slice(-2).map((m: { id: string }) => m.id)).toEqual([ai.id, lead.id]);
		expect(read.body.last_message_at).toBe(lead.created_at);
		expect(() => ctx.sandbox.control.addMessage(conversation.id, { sent_by: 'robot' })).toThrow(
			/sent_by/,
		);
		const overHttp = await fetch(
			`${ctx.sandbox.controlUrl}/conversations/${conversation.id}/messages`,
			{
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ sent_by: 'ai_agent', content: 'Hi!' }),
			},
		);
		expect(overHttp.status).toBe(200);
		expect(await overHttp.json()).toMatchObject({ sent_by: 'ai_agent', content: 'Hi!' });
	});

	it('each sandbox has its own clock', async () => {
		const other = await start();
		try {
			ctx.sandbox.control.advanceClock(5 * HOUR);
			expect(other.control.clock().offsetMs).toBe(0);
		} finally {
			await other.close();
		}
	});
});
