// Subscribing to events, and receivers over HTTPS.

import { selfSignedCertificate } from '../../harness/support/tls';
import { call, ISO_Z, keysOf, start, startReceiver, useService, verify } from './helpers';

describe('webhook subscriptions', () => {
	const ctx = useService();

	it('creates, reads and deletes a subscription', async () => {
		const created = await call(ctx.sandbox, 'POST', '/webhooks', {
			body: {
				url: 'https://hooks.example.com/in',
				events: ['lead.qualified', 'lead.created'],
				description: 'CRM',
			},
		});
		expect(created.status).toBe(201);
		expect(keysOf(created.body)).toEqual([
			'created_at',
			'description',
			'events',
			'id',
			'secret',
			'url',
		]);
		expect(created.body).toMatchObject({
			url: 'https://hooks.example.com/in',
			events: ['lead.qualified', 'lead.created'],
			description: 'CRM',
		});
		expect(created.body.id).toMatch(/^wh_/);
		expect(created.body.secret).toMatch(/^[0-9a-f]{64}$/);
		expect(created.body.created_at).toMatch(ISO_Z);

		const read = await call(ctx.sandbox, 'GET', `/webhooks/${created.body.id}`);
		expect(read.status).toBe(200);
		const { secret: _secret, ...withoutSecret } = created.body;
		expect(read.body).toEqual(withoutSecret);

		const other = await call(ctx.sandbox, 'GET', `/webhooks/${created.body.id}`, {
			key: ctx.sandbox.keys.otherOrganization,
		});
		expect(other.status).toBe(404);
		expect(
			(
				await call(ctx.sandbox, 'DELETE', `/webhooks/${created.body.id}`, {
					key: ctx.sandbox.keys.otherOrganization,
				})
			).status,
		).toBe(404);

		const deleted = await call(ctx.sandbox, 'DELETE', `/webhooks/${created.body.id}`);
		expect(deleted.status).toBe(204);
		expect(deleted.text).toBe('');
		for (const method of ['GET', 'DELETE']) {
			const gone = await call(ctx.sandbox, method, `/webhooks/${created.body.id}`);
			expect(gone.status).toBe(404);
			expect(gone.body).toEqual({ error: 'not_found', message: expect.any(String) });
		}
	});

	it('accepts "*" and stores a missing description as null', async () => {
		const res = await call(ctx.sandbox, 'POST', '/webhooks', {
			body: { url: 'https://h.example.com', events: ['*'] },
		});
		expect(res.status).toBe(201);
		expect(res.body.description).toBeNull();
		expect(ctx.sandbox.control.webhooks()[0]).toMatchObject({
			id: res.body.id,
			organization_id: 'org_alpha',
			secret: res.body.secret,
		});
	});

	it.each([
		['url', { events: ['*'] }],
		['url', { url: 'http://hooks.example.com', events: ['*'] }],
		['url', { url: 'ftp://hooks.example.com', events: ['*'] }],
		['url', { url: 'hooks.example.com', events: ['*'] }],
		['events', { url: 'https://hooks.example.com' }],
		['events', { url: 'https://hooks.example.com', events: [] }],
		['events', { url: 'https://hooks.example.com', events: 'lead.created' }],
		['events', { url: 'https://hooks.example.com', events: ['lead.deleted'] }],
		['events', { url: 'https://hooks.example.com', events: ['lead.created', 3] }],
		['description', { url: 'https://hooks.example.com', events: ['*'], description: 5 }],
	])('refuses an invalid %s with 400', async (field, body) => {
		const res = await call(ctx.sandbox, 'POST', '/webhooks', { body });
		expect(res.status).toBe(400);
		expect(res.body.error).toBe('invalid_request');
		expect(res.body.message.startsWith(field)).toBe(true);
	});
});

describe('https receivers', () => {
	it('accepts https:// subscriptions and delivers to a self-signed receiver', async () => {
		const sandbox = await start();
		const receiver = await startReceiver({ tls: selfSignedCertificate() });
		try {
			expect(receiver.url.startsWith('https://')).toBe(true);
			const subscription = (
				await call(sandbox, 'POST', '/webhooks', {
					body: { url: receiver.url, events: ['lead.created'] },
				})
			).body;
			await call(sandbox, 'POST', '/leads', { body: { name: 'TLS', phone: '+14155550118' } });
			const [delivery] = await receiver.waitFor(1);
			expect(
				verify(delivery.body, delivery.headers['x-service-signature'], subscription.secret),
			).toBe(true);
			await sandbox.control.whenDeliveriesSettled();
			expect(sandbox.control.deliveries()[0]).toMatchObject({ ok: true, status: 200 });
		} finally {
			await receiver.close();
			await sandbox.close();
		}
	});
});
