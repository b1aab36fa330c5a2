// Creating, reading and changing one lead.

import type { StoredLead } from '../../sandbox';
import { alphaLeadsOf, call, ISO_Z, keysOf, LEAD_FIELDS, useService } from './helpers';

const ctx = useService();

const alphaLeads = (filter?: (lead: StoredLead) => boolean) => alphaLeadsOf(ctx.sandbox, filter);

describe('POST /leads', () => {
	it('creates a lead with the documented defaults, stores notes and does not return them', async () => {
		const res = await call(ctx.sandbox, 'POST', '/leads', {
			body: { name: 'Ana Souza', phone: '+5511987654321', notes: 'call after 6 pm' },
		});
		expect(res.status).toBe(201);
		expect(keysOf(res.body)).toEqual(LEAD_FIELDS);
		expect(res.body).toMatchObject({
			name: 'Ana Souza',
			phone: '+5511987654321',
			email: null,
			channel: 'api',
			vehicle_interest: null,
			score: 0,
			intent: 'unknown',
			status: 'new',
			assigned_to: null,
			organization_id: 'org_alpha',
		});
		expect(res.body.id).toMatch(/^lead_/);
		expect(res.body.created_at).toMatch(ISO_Z);
		expect(res.body.updated_at).toBe(res.body.created_at);
		const stored = ctx.sandbox.control.state().leads.find((lead) => lead.id === res.body.id);
		expect(stored?.notes).toBe('call after 6 pm');

		const list = await call(ctx.sandbox, 'GET', '/leads?limit=1');
		expect(list.body.data[0].id).toBe(res.body.id);
		expect(list.body.pagination.total).toBe(251);
		const got = await call(ctx.sandbox, 'GET', `/leads/${res.body.id}`);
		expect(got.body).toEqual(res.body);
	});

	it('takes every optional field', async () => {
		const res = await call(ctx.sandbox, 'POST', '/leads', {
			body: {
				name: 'James Smith',
				phone: '+14155550123',
				email: 'james@example.com',
				channel: 'marketplace',
				vehicle_interest: 'Pickup 4x4',
				notes: 'n',
				unknown_field: 'ignored',
			},
		});
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({
			email: 'james@example.com',
			channel: 'marketplace',
			vehicle_interest: 'Pickup 4x4',
		});
		expect(res.body).not.toHaveProperty('unknown_field');
	});

	it.each([
		['name', { phone: '+14155550123' }],
		['name', { name: '', phone: '+14155550123' }],
		['name', { name: 42, phone: '+14155550123' }],
		['phone', { name: 'A' }],
		['phone', { name: 'A', phone: '14155550123' }],
		['phone', { name: 'A', phone: '+0155550123' }],
		['phone', { name: 'A', phone: '+1 415 555 0123' }],
		['phone', { name: 'A', phone: '+1234567890123456' }],
		['email', { name: 'A', phone: '+14155550123', email: 'not-an-email' }],
		['email', { name: 'A', phone: '+14155550123', email: 7 }],
		['channel', { name: 'A', phone: '+14155550123', channel: 'api' }],
		['channel', { name: 'A', phone: '+14155550123', channel: 'carrier_pigeon' }],
		['vehicle_interest', { name: 'A', phone: '+14155550123', vehicle_interest: ['suv'] }],
		['notes', { name: 'A', phone: '+14155550123', notes: { text: 'x' } }],
		['body', ['name']],
		['body', null],
	])('refuses an invalid %s with 400', async (field, body) => {
		const res = await call(ctx.sandbox, 'POST', '/leads', { body });
		expect(res.status).toBe(400);
		expect(keysOf(res.body)).toEqual(['error', 'message']);
		expect(res.body.error).toBe('invalid_request');
		expect(res.body.message.startsWith(field)).toBe(true);
	});

	it('refuses invalid JSON with 400', async () => {
		const res = await call(ctx.sandbox, 'POST', '/leads', { body: '{"name": "A",' });
		expect(res.status).toBe(400);
		expect(res.body.error).toBe('invalid_request');
		expect(res.body.message).toMatch(/JSON/);
	});
});

describe('GET /leads/{id}', () => {
	it('returns the lead', async () => {
		const lead = alphaLeads()[5];
		const res = await call(ctx.sandbox, 'GET', `/leads/${lead.id}`);
		expect(res.status).toBe(200);
		const { notes: _notes, ...visible } = lead;
		expect(res.body).toEqual(visible);
	});

	it('answers 404 lead_not_found (nested) for a missing lead and for a lead of another organization', async () => {
		const beta = ctx.sandbox.control
			.state()
			.leads.find((lead) => lead.organization_id === 'org_beta');
		for (const id of ['lead_doesnotexist', 'nope', beta!.id]) {
			const res = await call(ctx.sandbox, 'GET', `/leads/${id}`);
			expect(res.status).toBe(404);
			expect(keysOf(res.body)).toEqual(['error']);
			expect(keysOf(res.body.error)).toEqual(['code', 'message', 'status']);
			expect(res.body.error).toMatchObject({ code: 'lead_not_found', status: 404 });
		}
	});
});

describe('PATCH /leads/{id}', () => {
	async function newLead() {
		return (
			await call(ctx.sandbox, 'POST', '/leads', {
				body: {
					name: 'Patch Me',
					phone: '+5491112345678',
					vehicle_interest: 'SUV',
					notes: 'first',
				},
			})
		).body;
	}

	it('changes the status, updated_at and last_activity_at', async () => {
		const lead = await newLead();
		const res = await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, {
			body: { status: 'in_conversation' },
		});
		expect(res.status).toBe(200);
		expect(keysOf(res.body)).toEqual(LEAD_FIELDS);
		expect(res.body.status).toBe('in_conversation');
		expect(res.body.updated_at > lead.updated_at).toBe(true);
		expect(res.body.last_activity_at > lead.last_activity_at).toBe(true);
		expect(res.body.name).toBe('Patch Me');
	});

	it('accepts each of the six statuses', async () => {
		const lead = await newLead();
		for (const status of ['new', 'in_conversation', 'qualified', 'assigned', 'closed', 'lost']) {
			const res = await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, { body: { status } });
			expect(res.body.status).toBe(status);
		}
	});

	it('assigns, unassigns, and clears optional fields with explicit null', async () => {
		const lead = await newLead();
		let res = await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, {
			body: { assigned_to: 'user_42' },
		});
		expect(res.body.assigned_to).toBe('user_42');
		res = await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, { body: { notes: 'second' } });
		expect(res.body.assigned_to).toBe('user_42');
		expect(res.body.vehicle_interest).toBe('SUV');
		expect(ctx.sandbox.control.state().leads.find((l) => l.id === lead.id)?.notes).toBe('second');
		res = await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, {
			body: { assigned_to: null, vehicle_interest: null, notes: null },
		});
		expect(res.status).toBe(200);
		expect(res.body.assigned_to).toBeNull();
		expect(res.body.vehicle_interest).toBeNull();
		expect(ctx.sandbox.control.state().leads.find((l) => l.id === lead.id)?.notes).toBeNull();
	});

	it('moves updated_at on every update, even an empty one', async () => {
		const lead = await newLead();
		const first = await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, { body: {} });
		const second = await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, { body: {} });
		expect(first.body.updated_at > lead.updated_at).toBe(true);
		expect(second.body.updated_at > first.body.updated_at).toBe(true);
	});

	it.each([
		['status', { status: 'won' }],
		['status', { status: null }],
		['assigned_to', { assigned_to: 12 }],
		['assigned_to', { assigned_to: '' }],
		['vehicle_interest', { vehicle_interest: 3 }],
		['notes', { notes: true }],
	])('refuses an invalid %s and changes nothing', async (field, body) => {
		const lead = await newLead();
		const res = await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, { body });
		expect(res.status).toBe(400);
		expect(res.body.error).toBe('invalid_request');
		expect(res.body.message.startsWith(field)).toBe(true);
		expect((await call(ctx.sandbox, 'GET', `/leads/${lead.id}`)).body).toEqual(lead);
	});

	it('answers the nested 404 for a missing lead or a lead of another organization', async () => {
		const beta = ctx.sandbox.control
			.state()
			.leads.find((lead) => lead.organization_id === 'org_beta')!;
		for (const id of ['lead_missing', beta.id]) {
			const res = await call(ctx.sandbox, 'PATCH', `/leads/${id}`, { body: { status: 'lost' } });
			expect(res.status).toBe(404);
			expect(res.body.error.code).toBe('lead_not_found');
		}
		expect(ctx.sandbox.control.state().leads.find((lead) => lead.id === beta.id)?.status).toBe(
			beta.status,
		);
	});

	it('keeps the filtered totals right after changes', async () => {
		const before = (await call(ctx.sandbox, 'GET', '/leads?status=lost')).body.pagination.total;
		const lead = await newLead();
		await call(ctx.sandbox, 'PATCH', `/leads/${lead.id}`, { body: { status: 'lost' } });
		const after = (await call(ctx.sandbox, 'GET', '/leads?status=lost')).body;
		expect(after.pagination.total).toBe(before + 1);
		expect(after.data[0].id).toBe(lead.id);
	});
});
