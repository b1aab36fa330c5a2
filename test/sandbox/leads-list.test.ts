// Listing leads (GET /leads), pages, filters, order and totals.

import type { StoredLead } from '../../sandbox';
import {
	alphaLeadsOf,
	call,
	ISO_Z,
	keysOf,
	LEAD_FIELDS,
	listOrder,
	walk,
	useService,
} from './helpers';

const ctx = useService();

const alphaLeads = (filter?: (lead: StoredLead) => boolean) => alphaLeadsOf(ctx.sandbox, filter);

describe('GET /leads', () => {
	it('returns the first page with the default limit, exact lead fields and a total', async () => {
		const res = await call(ctx.sandbox, 'GET', '/leads');
		expect(res.status).toBe(200);
		expect(keysOf(res.body)).toEqual(['data', 'pagination']);
		expect(res.body.data).toHaveLength(20);
		expect(keysOf(res.body.pagination)).toEqual(['has_more', 'limit', 'next_cursor', 'total']);
		expect(res.body.pagination).toMatchObject({ limit: 20, has_more: true, total: 250 });
		expect(typeof res.body.pagination.next_cursor).toBe('string');
		for (const lead of res.body.data) {
			expect(keysOf(lead)).toEqual(LEAD_FIELDS);
			expect(lead.id).toMatch(/^lead_/);
			expect(lead.phone).toMatch(/^\+[1-9]\d{1,14}$/);
			expect(lead.created_at).toMatch(ISO_Z);
			expect(lead.updated_at).toMatch(ISO_Z);
			expect(lead.last_activity_at).toMatch(ISO_Z);
			expect(lead.organization_id).toBe('org_alpha');
			expect(lead).not.toHaveProperty('notes');
		}
	});

	it('walks every lead in a stable order: created_at descending, then id', async () => {
		const { items, pages } = await walk(ctx.sandbox, '/leads', { limit: '100' });
		expect(pages).toHaveLength(3);
		expect(items.map((lead) => lead.id)).toEqual(alphaLeads().map((lead) => lead.id));
		expect([...items].sort(listOrder)).toEqual(items);
		const last = pages[pages.length - 1].body.pagination;
		expect(last).toMatchObject({ has_more: false, next_cursor: null, total: 250 });
		// Same request, same answer.
		const again = await walk(ctx.sandbox, '/leads', { limit: '100' });
		expect(again.items).toEqual(items);
	});

	const filterCases: Array<[string, Record<string, string>, (lead: StoredLead) => boolean]> = [
		['status', { status: 'qualified' }, (lead) => lead.status === 'qualified'],
		['intent', { intent: 'browsing' }, (lead) => lead.intent === 'browsing'],
		['channel', { channel: 'web_form' }, (lead) => lead.channel === 'web_form'],
		['score_min', { score_min: '70' }, (lead) => lead.score >= 70],
		['score_max', { score_max: '20' }, (lead) => lead.score <= 20],
		[
			'score range',
			{ score_min: '40', score_max: '60' },
			(lead) => lead.score >= 40 && lead.score <= 60,
		],
		[
			'created_after',
			{ created_after: '2025-09-01T00:00:00Z' },
			(lead) => lead.created_at >= '2025-09-01T00:00:00.000Z',
		],
		[
			'created_before',
			{ created_before: '2025-03-01T00:00:00Z' },
			(lead) => lead.created_at <= '2025-03-01T00:00:00.000Z',
		],
		[
			'combined',
			{ status: 'in_conversation', score_min: '10', created_after: '2025-04-01T00:00:00+02:00' },
			(lead) =>
				lead.status === 'in_conversation' &&
				lead.score >= 10 &&
				Date.parse(lead.created_at) >= Date.parse('2025-04-01T00:00:00+02:00'),
		],
	];

	it.each(filterCases)(
		'filters by %s across pages with the cursor alone',
		async (_name, query, predicate) => {
			const expected = alphaLeads(predicate);
			expect(expected.length).toBeGreaterThan(7);
			const { items, pages } = await walk(ctx.sandbox, '/leads', { ...query, limit: '7' });
			expect(items.map((lead) => lead.id)).toEqual(expected.map((lead) => lead.id));
			for (const page of pages) {
				expect(page.body.pagination.total).toBe(expected.length);
				expect(page.body.pagination.limit).toBe(7);
			}
			// Only the first request carried the filters.
			const requests = ctx.sandbox.control.requests().filter((r) => r.path === '/v1/leads');
			expect(requests[0].query).toMatchObject(query);
			for (const request of requests.slice(1))
				expect(keysOf(request.query)).toEqual(['cursor', 'limit']);
		},
	);

	it("keeps the cursor's filters when other filters are sent with it", async () => {
		const first = await call(ctx.sandbox, 'GET', '/leads?status=new&limit=3');
		const cursor = first.body.pagination.next_cursor;
		const second = await call(
			ctx.sandbox,
			'GET',
			`/leads?cursor=${encodeURIComponent(cursor)}&status=lost&channel=email&limit=3`,
		);
		expect(second.status).toBe(200);
		const expected = alphaLeads((lead) => lead.status === 'new').slice(3, 6);
		expect(second.body.data.map((lead: StoredLead) => lead.id)).toEqual(
			expected.map((lead) => lead.id),
		);
		expect(second.body.pagination.total).toBe(alphaLeads((lead) => lead.status === 'new').length);
	});

	it('accepts limits 1 and 100 and refuses others', async () => {
		expect((await call(ctx.sandbox, 'GET', '/leads?limit=1')).body.data).toHaveLength(1);
		expect((await call(ctx.sandbox, 'GET', '/leads?limit=100')).body.data).toHaveLength(100);
		for (const limit of ['0', '101', '-1', 'abc', '1.5', '', '1e2']) {
			const res = await call(ctx.sandbox, 'GET', `/leads?limit=${limit}`);
			expect(res.status).toBe(400);
			expect(keysOf(res.body)).toEqual(['error', 'message']);
			expect(res.body.error).toBe('invalid_request');
			expect(res.body.message).toMatch(/^limit/);
		}
	});

	it.each([
		['status', 'open'],
		['intent', 'soon'],
		['channel', 'api'],
		['channel', 'fax'],
		['score_min', '-1'],
		['score_min', '101'],
		['score_max', '50.5'],
		['score_max', 'high'],
		['created_after', 'yesterday'],
		['created_after', '1735689600'],
		['created_before', '2025-02-30T00:00:00Z'],
		['created_before', '2025-13-01'],
	])('refuses %s=%s with 400 naming the parameter', async (name, value) => {
		const res = await call(ctx.sandbox, 'GET', `/leads?${name}=${encodeURIComponent(value)}`);
		expect(res.status).toBe(400);
		expect(res.body.error).toBe('invalid_request');
		expect(res.body.message.startsWith(name)).toBe(true);
	});

	it('refuses tampered, invented and foreign cursors', async () => {
		const first = await call(ctx.sandbox, 'GET', '/leads?limit=2');
		const cursor: string = first.body.pagination.next_cursor;
		const [payload, tag] = cursor.split('.');
		const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
		decoded.f = { status: 'lost' };
		const forged = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${tag}`;
		const conversationCursor = (await call(ctx.sandbox, 'GET', '/conversations?limit=1')).body
			.pagination.next_cursor;
		const betaCursor = (
			await call(ctx.sandbox, 'GET', '/leads?limit=1', { key: ctx.sandbox.keys.otherOrganization })
		).body.pagination.next_cursor;
		for (const bad of [
			forged,
			`${payload}.AAAA`,
			'garbage',
			'',
			cursor.slice(0, -2),
			conversationCursor,
			betaCursor,
		]) {
			const res = await call(ctx.sandbox, 'GET', `/leads?cursor=${encodeURIComponent(bad)}`);
			expect(res.status).toBe(400);
			expect(res.body.error).toBe('invalid_request');
			expect(res.body.message).toMatch(/^cursor/);
		}
	});

	it('accepts ISO 8601 date-times with offsets and dates', async () => {
		for (const value of [
			'2025-06-01',
			'2025-06-01T12:00:00Z',
			'2025-06-01T12:00:00.123+03:00',
			'2025-06-01T12:00Z',
		]) {
			const res = await call(
				ctx.sandbox,
				'GET',
				`/leads?created_after=${encodeURIComponent(value)}`,
			);
			expect(res.status).toBe(200);
			expect(res.body.pagination.total).toBe(
				alphaLeads(
					(lead) =>
						Date.parse(lead.created_at) >=
						Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value),
				).length,
			);
		}
	});

	it('returns an empty page when nothing matches', async () => {
		const res = await call(ctx.sandbox, 'GET', '/leads?score_min=90&score_max=10');
		expect(res.body).toEqual({
			data: [],
			pagination: { total: 0, limit: 20, has_more: false, next_cursor: null },
		});
	});
});
