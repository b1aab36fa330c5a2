import { AGENT_LIST_FIELDS, call, ISO_Z, keysOf, walk, useService } from './helpers';

const ctx = useService();

const alphaAgents = () =>
	ctx.sandbox.control.state().agents.filter((agent) => agent.organization_id === 'org_alpha');

describe('GET /agents', () => {
	it('lists agents without configuration and without a total', async () => {
		const res = await call(ctx.sandbox, 'GET', '/agents');
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(alphaAgents().length);
		expect(keysOf(res.body.pagination)).toEqual(['has_more', 'limit', 'next_cursor']);
		expect(res.body.pagination).toEqual({ limit: 20, has_more: false, next_cursor: null });
		for (const agent of res.body.data) {
			expect(keysOf(agent)).toEqual(AGENT_LIST_FIELDS);
			expect(agent.id).toMatch(/^agent_/);
			expect(agent.created_at).toMatch(ISO_Z);
			expect(Array.isArray(agent.channels)).toBe(true);
		}
	});

	it('covers every status and language in the seed', () => {
		const agents = alphaAgents();
		for (const status of ['active', 'inactive', 'draft'])
			expect(agents.some((a) => a.status === status)).toBe(true);
		for (const language of ['es-AR', 'es-MX', 'es-CR', 'es-CO', 'pt-BR', 'en-US']) {
			expect(agents.some((a) => a.language === language)).toBe(true);
		}
	});

	it('paginates with cursors', async () => {
		const { items, pages } = await walk(ctx.sandbox, '/agents', { limit: '3' });
		expect(pages.length).toBe(Math.ceil(alphaAgents().length / 3));
		expect(new Set(items.map((a) => a.id)).size).toBe(alphaAgents().length);
		expect(pages[0].body.pagination).not.toHaveProperty('total');
	});

	it.each(['active', 'inactive', 'draft'])('filters by status %s', async (status) => {
		const { items } = await walk(ctx.sandbox, '/agents', { status, limit: '1' });
		expect(items.length).toBe(alphaAgents().filter((a) => a.status === status).length);
		expect(items.every((a) => a.status === status)).toBe(true);
	});

	it('refuses an unknown status', async () => {
		const res = await call(ctx.sandbox, 'GET', '/agents?status=paused');
		expect(res.status).toBe(400);
		expect(res.body.message).toMatch(/^status/);
	});
});

describe('GET /agents/{id}', () => {
	it('returns the agent with its full configuration', async () => {
		const agent = alphaAgents()[0];
		const res = await call(ctx.sandbox, 'GET', `/agents/${agent.id}`);
		expect(res.status).toBe(200);
		expect(keysOf(res.body)).toEqual([...AGENT_LIST_FIELDS, 'configuration'].sort());
		expect(keysOf(res.body.configuration)).toEqual([
			'allowed_topics',
			'follow_up_cadence',
			'handoff_triggers',
			'tone',
		]);
		expect(keysOf(res.body.configuration.follow_up_cadence)).toEqual([
			'channel',
			'interval_days',
			'max_follow_ups',
		]);
		expect(res.body.configuration).toEqual(agent.configuration);
	});

	it('answers the flat 404 for a missing agent and one of another organization', async () => {
		const beta = ctx.sandbox.control.state().agents.find((a) => a.organization_id === 'org_beta')!;
		for (const id of ['agent_missing', beta.id]) {
			const res = await call(ctx.sandbox, 'GET', `/agents/${id}`);
			expect(res.status).toBe(404);
			expect(res.body).toEqual({ error: 'not_found', message: expect.any(String) });
		}
	});
});

describe('PATCH /agents/{id}', () => {
	it('updates the given fields only and returns the full agent', async () => {
		const agent = alphaAgents().find((a) => a.status === 'active')!;
		const res = await call(ctx.sandbox, 'PATCH', `/agents/${agent.id}`, {
			body: {
				name: 'Renamed',
				status: 'inactive',
				language: 'pt-BR',
				configuration: {
					tone: 'formal',
					handoff_triggers: ['legal question'],
					follow_up_cadence: { max_follow_ups: 4, interval_days: 2 },
				},
			},
		});
		expect(res.status).toBe(200);
		expect(keysOf(res.body)).toEqual([...AGENT_LIST_FIELDS, 'configuration'].sort());
		expect(res.body).toMatchObject({ name: 'Renamed', status: 'inactive', language: 'pt-BR' });
		expect(res.body.configuration).toEqual({
			tone: 'formal',
			handoff_triggers: ['legal question'],
			allowed_topics: agent.configuration.allowed_topics,
			follow_up_cadence: {
				max_follow_ups: 4,
				interval_days: 2,
				channel: agent.configuration.follow_up_cadence.channel,
			},
		});
		expect(res.body.channels).toEqual(agent.channels);
		expect(res.body.updated_at > agent.updated_at).toBe(true);
		expect((await call(ctx.sandbox, 'GET', `/agents/${agent.id}`)).body).toEqual(res.body);
	});

	it('activates a draft agent and changes one field at a time', async () => {
		const agent = alphaAgents().find((a) => a.status === 'draft')!;
		const res = await call(ctx.sandbox, 'PATCH', `/agents/${agent.id}`, {
			body: { status: 'active' },
		});
		expect(res.body.status).toBe('active');
		expect(res.body.name).toBe(agent.name);
		const tone = await call(ctx.sandbox, 'PATCH', `/agents/${agent.id}`, {
			body: { configuration: { follow_up_cadence: { interval_days: 9 } } },
		});
		expect(tone.body.configuration.follow_up_cadence.interval_days).toBe(9);
		expect(tone.body.configuration.follow_up_cadence.max_follow_ups).toBe(
			agent.configuration.follow_up_cadence.max_follow_ups,
		);
		expect(tone.body.configuration.tone).toBe(agent.configuration.tone);
	});

	it.each([
		['status', { status: 'draft' }],
		['status', { status: 'archived' }],
		['language', { language: 'fr-FR' }],
		['name', { name: '' }],
		['name', { name: 5 }],
		['configuration', { configuration: 'friendly' }],
		['configuration.tone', { configuration: { tone: 'rude' } }],
		['configuration.handoff_triggers', { configuration: { handoff_triggers: 'price' } }],
		['configuration.handoff_triggers', { configuration: { handoff_triggers: [1] } }],
		['configuration.allowed_topics', { configuration: { allowed_topics: ['x'] } }],
		['configuration.follow_up_cadence', { configuration: { follow_up_cadence: 3 } }],
		[
			'configuration.follow_up_cadence.max_follow_ups',
			{ configuration: { follow_up_cadence: { max_follow_ups: 1.5 } } },
		],
		[
			'configuration.follow_up_cadence.interval_days',
			{ configuration: { follow_up_cadence: { interval_days: '2' } } },
		],
		[
			'configuration.follow_up_cadence.channel',
			{ configuration: { follow_up_cadence: { channel: 'email' } } },
		],
	])('refuses an invalid %s and leaves the agent unchanged', async (field, body) => {
		const agent = alphaAgents()[1];
		const before = (await call(ctx.sandbox, 'GET', `/agents/${agent.id}`)).body;
		const res = await call(ctx.sandbox, 'PATCH', `/agents/${agent.id}`, {
			body: { name: 'Changed?', ...body },
		});
		expect(res.status).toBe(400);
		expect(res.body.error).toBe('invalid_request');
		expect(res.body.message.startsWith(field)).toBe(true);
		expect((await call(ctx.sandbox, 'GET', `/agents/${agent.id}`)).body).toEqual(before);
	});

	it('answers the flat 404 for an agent of another organization', async () => {
		const beta = ctx.sandbox.control.state().agents.find((a) => a.organization_id === 'org_beta')!;
		const res = await call(ctx.sandbox, 'PATCH', `/agents/${beta.id}`, {
			body: { status: 'inactive' },
		});
		expect(res.status).toBe(404);
		expect(res.body.error).toBe('not_found');
	});
});
