import http from 'http';
import { call, keysOf, sleep, start, useService } from './helpers';

describe('authentication and organizations', () => {
	const ctx = useService();

	it.each<[string, string | null]>([
		['missing', null],
		['empty', ''],
		['unknown', 'lcsk_0000000000000000000000000000000000000000'],
		['malformed', 'not a key'],
	])('answers 401 unauthorized for a %s key', async (_case, key) => {
		const res = await call(ctx.sandbox, 'GET', '/leads', { key });
		expect(res.status).toBe(401);
		expect(keysOf(res.body)).toEqual(['error', 'message']);
		expect(res.body.error).toBe('unauthorized');
		expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
		expect(res.headers.get('x-ratelimit-reset')).not.toBeNull();
	});

	it('answers 401 for the revoked key and for a key revoked at run time, before any processing', async () => {
		expect(
			(await call(ctx.sandbox, 'GET', '/leads', { key: ctx.sandbox.keys.revoked })).status,
		).toBe(401);
		const before = ctx.sandbox.control.state().leads.length;
		const res = await call(ctx.sandbox, 'POST', '/leads', {
			key: ctx.sandbox.keys.revoked,
			body: { name: 'X', phone: '+14155550100' },
		});
		expect(res.status).toBe(401);
		expect(ctx.sandbox.control.state().leads.length).toBe(before);

		expect((await call(ctx.sandbox, 'GET', '/agents')).status).toBe(200);
		ctx.sandbox.control.revokeKey(ctx.sandbox.keys.full);
		const revoked = await call(ctx.sandbox, 'GET', '/agents');
		expect(revoked.status).toBe(401);
		expect(revoked.body.message).not.toContain(ctx.sandbox.keys.full);
		ctx.sandbox.control.reset();
		expect((await call(ctx.sandbox, 'GET', '/agents')).status).toBe(200);
	});

	it('reads the header name case-insensitively', async () => {
		const url = new URL(`${ctx.sandbox.baseUrl}/agents`);
		for (const name of ['X-API-KEY', 'x-api-key', 'X-Api-Key']) {
			const status = await new Promise<number>((resolve, reject) => {
				http
					.get(url, { headers: { [name]: ctx.sandbox.keys.full } }, (res) => {
						res.resume();
						resolve(res.statusCode ?? 0);
					})
					.on('error', reject);
			});
			expect(status).toBe(200);
		}
	});

	it('lets the read-only key read but not write (403 forbidden)', async () => {
		const key = ctx.sandbox.keys.readOnly;
		expect((await call(ctx.sandbox, 'GET', '/leads', { key })).status).toBe(200);
		expect((await call(ctx.sandbox, 'GET', '/agents', { key })).status).toBe(200);
		const lead = ctx.sandbox.control.state().leads.find((l) => l.organization_id === 'org_alpha')!;
		const agent = ctx.sandbox.control
			.state()
			.agents.find((a) => a.organization_id === 'org_alpha')!;
		const conversation = ctx.sandbox.control
			.state()
			.conversations.find((c) => c.status === 'open')!;
		const writes: Array<[string, string, unknown]> = [
			['POST', '/leads', { name: 'X', phone: '+14155550100' }],
			['PATCH', `/leads/${lead.id}`, { status: 'lost' }],
			['PATCH', `/agents/${agent.id}`, { status: 'inactive' }],
			['POST', `/conversations/${conversation.id}/messages`, { content: 'hi' }],
			['POST', '/webhooks', { url: 'https://example.com/h', events: ['*'] }],
			['DELETE', '/webhooks/wh_any', undefined],
		];
		for (const [method, path, body] of writes) {
			const res = await call(ctx.sandbox, method, path, { key, body });
			expect(res.status).toBe(403);
			expect(res.body).toEqual({ error: 'forbidden', message: expect.any(String) });
		}
		expect(ctx.sandbox.control.state().leads.find((l) => l.id === lead.id)?.status).toBe(
			lead.status,
		);
	});

	it('answers 403 everywhere for the key of a suspended account', async () => {
		for (const [method, path] of [
			['GET', '/leads'],
			['GET', '/agents'],
			['POST', '/leads'],
		]) {
			const res = await call(ctx.sandbox, method, path, {
				key: ctx.sandbox.keys.suspended,
				body: method === 'POST' ? {} : undefined,
			});
			expect(res.status).toBe(403);
			expect(res.body.error).toBe('forbidden');
		}
	});

	it('keeps organizations apart: each key sees its own data only', async () => {
		const alpha = await call(ctx.sandbox, 'GET', '/leads?limit=100');
		const beta = await call(ctx.sandbox, 'GET', '/leads?limit=100', {
			key: ctx.sandbox.keys.otherOrganization,
		});
		expect(beta.body.pagination.total).toBe(40);
		expect(
			beta.body.data.every((l: { organization_id: string }) => l.organization_id === 'org_beta'),
		).toBe(true);
		const alphaIds = new Set(alpha.body.data.map((l: { id: string }) => l.id));
		expect(beta.body.data.some((l: { id: string }) => alphaIds.has(l.id))).toBe(false);

		const betaAgents = await call(ctx.sandbox, 'GET', '/agents', {
			key: ctx.sandbox.keys.otherOrganization,
		});
		expect(
			betaAgents.body.data.every(
				(a: { organization_id: string }) => a.organization_id === 'org_beta',
			),
		).toBe(true);

		// Cross-organization reads answer like a missing record.
		const alphaLead = alpha.body.data[0].id;
		const missing = await call(ctx.sandbox, 'GET', '/leads/lead_0000', {
			key: ctx.sandbox.keys.otherOrganization,
		});
		const foreign = await call(ctx.sandbox, 'GET', `/leads/${alphaLead}`, {
			key: ctx.sandbox.keys.otherOrganization,
		});
		expect(foreign.status).toBe(404);
		expect(keysOf(foreign.body.error)).toEqual(keysOf(missing.body.error));
		expect(foreign.body.error.code).toBe('lead_not_found');
	});

	it('answers 404 for unknown paths and 405 for unsupported methods', async () => {
		const unknown = await call(ctx.sandbox, 'GET', '/vehicles');
		expect(unknown.status).toBe(404);
		expect(unknown.body.error).toBe('not_found');
		const method = await call(ctx.sandbox, 'DELETE', '/leads/lead_x');
		expect(method.status).toBe(405);
		expect(method.headers.get('allow')).toBe('GET, PATCH');
	});
});

describe('request bodies', () => {
	const ctx = useService();

	const lead = { name: 'Body Test', phone: '+14155550123' };

	it('answers 415 for POST and PATCH without Content-Type: application/json', async () => {
		const bytes = new TextEncoder().encode(JSON.stringify(lead));
		const none = await call(ctx.sandbox, 'POST', '/leads', { body: bytes, noContentType: true });
		expect(none.status).toBe(415);
		expect(none.body).toEqual({ error: 'unsupported_media_type', message: expect.any(String) });
		const text = await call(ctx.sandbox, 'POST', '/leads', {
			body: lead,
			headers: { 'Content-Type': 'text/plain' },
		});
		expect(text.status).toBe(415);
		const form = await call(ctx.sandbox, 'PATCH', '/leads/lead_x', {
			body: 'status=lost',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		});
		expect(form.status).toBe(415);
		const charset = await call(ctx.sandbox, 'POST', '/leads', {
			body: lead,
			headers: { 'Content-Type': 'Application/JSON; charset=utf-8' },
		});
		expect(charset.status).toBe(201);
	});

	it('takes a body of exactly 1 MiB and refuses one byte more with 413', async () => {
		const skeleton = JSON.stringify({ ...lead, notes: '' });
		const notes = 'n'.repeat(1_048_576 - Buffer.byteLength(skeleton));
		const exact = JSON.stringify({ ...lead, notes });
		expect(Buffer.byteLength(exact)).toBe(1_048_576);
		const ok = await call(ctx.sandbox, 'POST', '/leads', { body: exact });
		expect(ok.status).toBe(201);
		expect(ctx.sandbox.control.state().leads.find((l) => l.id === ok.body.id)?.notes).toHaveLength(
			notes.length,
		);
		expect(ok.text.length).toBeLessThan(1000);

		const over = await call(ctx.sandbox, 'POST', '/leads', {
			body: JSON.stringify({ ...lead, notes: notes + 'n' }),
		});
		expect(over.status).toBe(413);
		expect(over.body).toEqual({ error: 'payload_too_large', message: expect.any(String) });
		const huge = await call(ctx.sandbox, 'POST', '/leads', {
			body: JSON.stringify({ ...lead, notes: 'x'.repeat(3_000_000) }),
		});
		expect(huge.status).toBe(413);
		// The connection is still usable afterwards.
		expect((await call(ctx.sandbox, 'GET', '/agents')).status).toBe(200);
	});

	it('answers 400 for an empty body and for JSON that is not an object', async () => {
		for (const body of ['', '"text"', '[1]', 'nul']) {
			const res = await call(ctx.sandbox, 'POST', '/leads', {
				body,
				headers: { 'Content-Type': 'application/json' },
			});
			expect(res.status).toBe(400);
			expect(res.body.error).toBe('invalid_request');
			expect(res.body.message).toMatch(/^body/);
		}
	});
});

describe('rate limiting', () => {
	it('carries X-RateLimit headers on every response and counts down', async () => {
		const sandbox = await start({ rateLimit: 50 });
		try {
			const first = await call(sandbox, 'GET', '/agents');
			const second = await call(sandbox, 'GET', '/leads?limit=0');
			const third = await call(sandbox, 'GET', '/leads/lead_missing');
			expect([first.status, second.status, third.status]).toEqual([200, 400, 404]);
			expect(first.headers.get('x-ratelimit-remaining')).toBe('49');
			expect(second.headers.get('x-ratelimit-remaining')).toBe('48');
			expect(third.headers.get('x-ratelimit-remaining')).toBe('47');
			const reset = Number(first.headers.get('x-ratelimit-reset'));
			expect(Number.isInteger(reset)).toBe(true);
			// Seconds since the epoch, the end of the current one-minute window.
			expect(reset * 1000).toBeGreaterThan(Date.now());
			expect(reset * 1000).toBeLessThanOrEqual(Date.now() + 61_000);
			// Counters are per key.
			const other = await call(sandbox, 'GET', '/agents', { key: sandbox.keys.otherOrganization });
			expect(other.headers.get('x-ratelimit-remaining')).toBe('49');
		} finally {
			await sandbox.close();
		}
	});

	it('answers 429 rate_limited with Retry-After past the limit, then recovers in the next window', async () => {
		const windowMs = 1500;
		const sandbox = await start({ rateLimit: 3, windowMs });
		try {
			// Start at the beginning of a window so the burst stays inside one window.
			await sleep(windowMs - (Date.now() % windowMs) + 5);
			const statuses: number[] = [];
			let limited;
			for (let i = 0; i < 5; i++) {
				const res = await call(sandbox, 'GET', '/agents');
				statuses.push(res.status);
				if (res.status === 429) limited = res;
			}
			expect(statuses).toEqual([200, 200, 200, 429, 429]);
			expect(limited!.body).toEqual({ error: 'rate_limited', message: expect.any(String) });
			expect(limited!.headers.get('x-ratelimit-remaining')).toBe('0');
			const retryAfter = Number(limited!.headers.get('retry-after'));
			expect(Number.isInteger(retryAfter)).toBe(true);
			expect(retryAfter).toBeGreaterThanOrEqual(1);
			expect(retryAfter).toBeLessThanOrEqual(2);
			const reset = Number(limited!.headers.get('x-ratelimit-reset'));
			// Waiting until X-RateLimit-Reset is always enough.
			await sleep(Math.max(0, reset * 1000 - Date.now()));
			const after = await call(sandbox, 'GET', '/agents');
			expect(after.status).toBe(200);
		} finally {
			await sandbox.close();
		}
	});

	it('can be reconfigured at run time over the control interface', async () => {
		const sandbox = await start();
		try {
			const set = await fetch(`${sandbox.controlUrl}/rate-limit`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ limit: 1, windowMs: 60_000 }),
			});
			expect(set.status).toBe(204);
			const settings = await (await fetch(`${sandbox.controlUrl}/rate-limit`)).json();
			expect(settings).toEqual({ limit: 1, windowMs: 60_000 });
			await sleep(60_000 - (Date.now() % 60_000) > 200 ? 0 : 250);
			expect((await call(sandbox, 'GET', '/agents')).status).toBe(200);
			const limited = await call(sandbox, 'GET', '/agents');
			expect(limited.status).toBe(429);
			expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
			sandbox.control.setRateLimit(1000, 60_000);
			expect((await call(sandbox, 'GET', '/agents')).status).toBe(200);
		} finally {
			await sandbox.close();
		}
	});
});
