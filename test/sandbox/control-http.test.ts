// The control interface over HTTP.

import { call, start, startReceiver, useService } from './helpers';

const ctx = useService({ allowHttpWebhooks: true });

async function control(method: string, path: string, body?: unknown) {
	const res = await fetch(`${ctx.sandbox.controlUrl}${path}`, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('control interface over HTTP', () => {
	it('lists its routes and the keys', async () => {
		const index = await control('GET', '');
		expect(index.status).toBe(200);
		expect(index.body.routes.length).toBeGreaterThan(10);
		expect((await control('GET', '/keys')).body).toEqual(ctx.sandbox.keys);
	});

	it('resets with another size and clears subscriptions, faults, logs and revocations', async () => {
		await call(ctx.sandbox, 'POST', '/webhooks', {
			body: { url: 'https://h.example.com', events: ['*'] },
		});
		ctx.sandbox.control.injectFaults({
			kind: 'status',
			probability: 1,
			pathPrefix: '/v1/conversations',
		});
		ctx.sandbox.control.revokeKey(ctx.sandbox.keys.otherOrganization);
		expect((await control('POST', '/reset', { leads: 12 })).status).toBe(204);
		expect(ctx.sandbox.control.webhooks()).toEqual([]);
		expect(ctx.sandbox.control.faults()).toEqual([]);
		expect(ctx.sandbox.control.requests()).toEqual([]);
		expect((await call(ctx.sandbox, 'GET', '/leads')).body.pagination.total).toBe(12);
		expect((await call(ctx.sandbox, 'GET', '/conversations')).status).toBe(200);
		expect(
			(await call(ctx.sandbox, 'GET', '/leads', { key: ctx.sandbox.keys.otherOrganization }))
				.status,
		).toBe(200);
	});

	it('injects and clears faults, revokes keys, serves the logs and the state', async () => {
		expect(
			(
				await control('POST', '/faults', [
					{ kind: 'status', status: 500 },
					{ kind: 'delay', delayMs: 10 },
				])
			).status,
		).toBe(204);
		expect((await control('GET', '/faults')).body).toHaveLength(2);
		expect((await control('POST', '/faults', { kind: 'nope' })).status).toBe(400);
		expect((await control('DELETE', '/faults')).status).toBe(204);
		expect((await control('GET', '/faults')).body).toEqual([]);

		await call(ctx.sandbox, 'GET', '/agents');
		expect((await control('GET', '/requests')).body).toHaveLength(1);
		expect((await control('DELETE', '/requests')).status).toBe(204);
		expect((await control('GET', '/requests')).body).toEqual([]);

		expect((await control('POST', '/keys/revoke', { key: ctx.sandbox.keys.full })).status).toBe(
			204,
		);
		expect((await call(ctx.sandbox, 'GET', '/agents')).status).toBe(401);
		expect((await control('POST', '/keys/revoke', { key: 'nope' })).status).toBe(404);

		const state = (await control('GET', '/state')).body;
		expect(state.leads.length).toBe(290);
		expect(state.leads[0]).toHaveProperty('notes');
		expect(state.organizations.map((o: { id: string }) => o.id).sort()).toEqual([
			'org_alpha',
			'org_beta',
			'org_gamma',
		]);
	});

	it('applies changes and emits events through the HTTP helpers', async () => {
		const receiver = await startReceiver();
		try {
			const sub = await call(ctx.sandbox, 'POST', '/webhooks', {
				body: { url: receiver.url, events: ['*'] },
			});
			const lead = await control('POST', '/channel-leads', {
				name: 'Via HTTP',
				channel: 'social_a',
			});
			expect(lead.status).toBe(200);
			expect(lead.body).toMatchObject({ name: 'Via HTTP', channel: 'social_a', status: 'new' });
			expect(
				(await control('POST', `/leads/${lead.body.id}/qualify`, { score: 77 })).body.score,
			).toBe(77);
			expect(
				(await control('POST', `/leads/${lead.body.id}/appointments`, { location: 'Branch 2' }))
					.body.location,
			).toBe('Branch 2');
			const conversation = ctx.sandbox.control
				.state()
				.conversations.find((c) => c.status === 'closed')!;
			expect(
				(
					await control('POST', `/conversations/${conversation.id}/milestones`, {
						milestone: 'test_drive',
					})
				).status,
			).toBe(200);
			expect(
				(await control('POST', `/conversations/${conversation.id}/status`, { status: 'open' })).body
					.status,
			).toBe('open');
			expect(
				(await control('POST', `/conversations/${conversation.id}/status`, { status: 'gone' }))
					.status,
			).toBe(400);
			expect((await control('POST', '/leads/lead_missing/qualify', {})).status).toBe(404);
			const raw = await control('POST', `/webhooks/${sub.body.id}/deliver-raw`, {
				body: 'not json',
			});
			expect(raw.body).toMatchObject({ ok: true, status: 200 });
			expect((await control('GET', '/deliveries/settled')).body).toEqual({ settled: true });
			const deliveries = (await control('GET', '/deliveries')).body;
			expect(deliveries.map((d: { event: string }) => d.event).sort()).toEqual(
				[
					'appointment.booked',
					'conversation.milestone',
					'conversation.status_changed',
					'lead.created',
					'lead.qualified',
					'raw',
				].sort(),
			);
			expect((await control('GET', '/webhooks')).body[0].secret).toBe(sub.body.secret);
			expect((await control('DELETE', '/deliveries')).status).toBe(204);
			expect((await control('GET', '/deliveries')).body).toEqual([]);
		} finally {
			await receiver.close();
		}
	});

	it('reads and changes options at run time', async () => {
		const options = (await control('GET', '/options')).body;
		expect(options).toMatchObject({
			port: ctx.sandbox.port,
			host: '127.0.0.1',
			leads: 250,
			rateLimit: 1000,
			windowMs: 60_000,
		});
		const local = await start();
		try {
			const refused = await call(local, 'POST', '/webhooks', {
				body: { url: 'http://127.0.0.1:9/h', events: ['*'] },
			});
			expect(refused.status).toBe(400);
			local.control.setOptions({ allowHttpWebhooks: true, retryScale: 0.5 });
			expect(local.control.options()).toMatchObject({ allowHttpWebhooks: true, retryScale: 0.5 });
			const accepted = await call(local, 'POST', '/webhooks', {
				body: { url: 'http://127.0.0.1:9/h', events: ['lead.qualified'] },
			});
			expect(accepted.status).toBe(201);
			expect(() => local.control.setOptions({ retryScale: -1 })).toThrow(/retryScale/);
		} finally {
			await local.close();
		}
	});

	it('answers 404 and 405 for unknown control routes', async () => {
		expect((await control('GET', '/nothing')).status).toBe(404);
		expect((await control('PATCH', '/reset', {})).status).toBe(405);
	});
});
