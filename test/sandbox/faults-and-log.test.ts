// Injected faults, the request log and closing the service.

import { call, sleep, start, startReceiver, useService } from './helpers';

const ctx = useService({ allowHttpWebhooks: true });

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
