import { call, sleep, start, startReceiver, useService } from './helpers';

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

describe('fault injection', () => {
	it('answers the next N matching requests with a status, with rate-limit headers', async () => {
		ctx.sandbox.control.injectFaults({
			kind: 'status',
			status: 503,
			count: 2,
			pathPrefix: '/v1/leads',
		});
		expect((await call(ctx.sandbox, 'GET', '/agents')).status).toBe(200);
		const first = await call(ctx.sandbox, 'GET', '/leads');
		expect(first.status).toBe(503);
		expect(first.body.error).toBe('service_unavailable');
		expect(first.headers.get('x-ratelimit-remaining')).not.toBeNull();
		expect((await call(ctx.sandbox, 'GET', '/leads')).status).toBe(503);
		expect((await call(ctx.sandbox, 'GET', '/leads')).status).toBe(200);
	});

	it('matches the method, defaults to one request and status 500, and can be cleared', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'status', method: 'post' });
		expect((await call(ctx.sandbox, 'GET', '/leads')).status).toBe(200);
		const before = ctx.sandbox.control.state().leads.length;
		expect(
			(await call(ctx.sandbox, 'POST', '/leads', { body: { name: 'X', phone: '+14155550100' } }))
				.status,
		).toBe(500);
		expect(ctx.sandbox.control.state().leads.length).toBe(before);
		expect(
			(await call(ctx.sandbox, 'POST', '/leads', { body: { name: 'X', phone: '+14155550100' } }))
				.status,
		).toBe(201);

		ctx.sandbox.control.injectFaults({ kind: 'status', status: 502, probability: 1 });
		for (let i = 0; i < 3; i++)
			expect((await call(ctx.sandbox, 'GET', '/agents')).status).toBe(502);
		expect(ctx.sandbox.control.faults()).toHaveLength(1);
		ctx.sandbox.control.clearFaults();
		expect((await call(ctx.sandbox, 'GET', '/agents')).status).toBe(200);
	});

	it('drops the connection before processing', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'drop', method: 'POST' });
		const before = ctx.sandbox.control.state().leads.length;
		await expect(
			call(ctx.sandbox, 'POST', '/leads', { body: { name: 'Drop', phone: '+14155550100' } }),
		).rejects.toThrow();
		expect(ctx.sandbox.control.state().leads.length).toBe(before);
		const logged = ctx.sandbox.control.requests().find((r) => r.method === 'POST');
		expect(logged?.status).toBe(0);
	});

	it('drops the connection after processing: the lead is created but no answer arrives', async () => {
		ctx.sandbox.control.injectFaults({
			kind: 'dropAfterProcessing',
			method: 'POST',
			pathPrefix: '/v1/leads',
		});
		await expect(
			call(ctx.sandbox, 'POST', '/leads', { body: { name: 'Ghost', phone: '+14155550199' } }),
		).rejects.toThrow();
		const created = ctx.sandbox.control
			.state()
			.leads.filter((lead) => lead.phone === '+14155550199');
		expect(created).toHaveLength(1);
		expect((await call(ctx.sandbox, 'GET', `/leads/${created[0].id}`)).status).toBe(200);
	});

	it('delays the answer after processing', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'delay', delayMs: 300 });
		const started = Date.now();
		const res = await call(ctx.sandbox, 'GET', '/agents');
		expect(res.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	});

	it('answers a request carrying a cursor with an expired-cursor 400', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'badCursor' });
		const first = await call(ctx.sandbox, 'GET', '/leads?limit=5');
		expect(first.status).toBe(200);
		const cursor = first.body.pagination.next_cursor;
		const bad = await call(ctx.sandbox, 'GET', `/leads?cursor=${encodeURIComponent(cursor)}`);
		expect(bad.status).toBe(400);
		expect(bad.body).toEqual({
			error: 'invalid_request',
			message: expect.stringMatching(/^cursor/),
		});
		const retried = await call(ctx.sandbox, 'GET', `/leads?cursor=${encodeURIComponent(cursor)}`);
		expect(retried.status).toBe(200);
	});

	it('refuses an invalid fault', () => {
		expect(() => ctx.sandbox.control.injectFaults({ kind: 'explode' as never })).toThrow(/kind/);
		expect(() => ctx.sandbox.control.injectFaults({ kind: 'status', probability: 2 })).toThrow(
			/probability/,
		);
	});
});

describe('request log', () => {
	it('records method, path, query, status and key role', async () => {
		await call(ctx.sandbox, 'GET', '/leads?status=new&limit=2');
		await call(ctx.sandbox, 'GET', '/agents', { key: ctx.sandbox.keys.readOnly });
		await call(ctx.sandbox, 'GET', '/agents', { key: null });
		await call(ctx.sandbox, 'POST', '/leads', { key: ctx.sandbox.keys.readOnly, body: {} });
		const log = ctx.sandbox.control.requests();
		expect(log.map(({ at: _at, ...rest }) => rest)).toEqual([
			{
				method: 'GET',
				path: '/v1/leads',
				query: { status: 'new', limit: '2' },
				status: 200,
				key: 'full',
			},
			{ method: 'GET', path: '/v1/agents', query: {}, status: 200, key: 'readOnly' },
			{ method: 'GET', path: '/v1/agents', query: {}, status: 401 },
			{ method: 'POST', path: '/v1/leads', query: {}, status: 403, key: 'readOnly' },
		]);
		expect(log.every((entry) => typeof entry.at === 'number')).toBe(true);
		ctx.sandbox.control.clearRequests();
		expect(ctx.sandbox.control.requests()).toEqual([]);
	});
});

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

describe('close', () => {
	it('stops the server and cancels scheduled retries', async () => {
		const local = await start({ allowHttpWebhooks: true, retryScale: 1 });
		const receiver = await startReceiver({ respond: () => 500 });
		try {
			await call(local, 'POST', '/webhooks', { body: { url: receiver.url, events: ['*'] } });
			await call(local, 'POST', '/leads', { body: { name: 'Close', phone: '+14155550100' } });
			await receiver.waitFor(1);
			await sleep(20);
			const settled = local.control.whenDeliveriesSettled();
			await local.close();
			await settled;
			await expect(fetch(`${local.baseUrl}/agents`)).rejects.toThrow();
		} finally {
			await receiver.close();
		}
	});
});
