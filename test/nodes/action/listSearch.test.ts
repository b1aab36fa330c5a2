import type { INodeListSearchResult, INodeParameters } from 'n8n-workflow';

import { listSearch } from '../../../nodes/LeadConversations/methods';
import { alphaLeads, apiRequests, editorContext, ref, useSandbox } from './helpers';

const ctx = useSandbox({ leads: 250 }, { resetEach: false });

/** Calls a "From List" search the way the editor does, with the node's current parameters. */
async function search(
	method: keyof typeof listSearch,
	parameters: INodeParameters,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await listSearch[method].call(
		editorContext(ctx.sandbox, parameters),
		filter,
		paginationToken,
	);
}

describe('From List: leads', () => {
	test('pages through every lead with the cursor as pagination token', async () => {
		const seen: string[] = [];
		let token: string | undefined;
		let calls = 0;
		do {
			const page = await search(
				'searchLeads',
				{ resource: 'lead', operation: 'get' },
				undefined,
				token,
			);
			seen.push(...page.results.map((r) => String(r.value)));
			token = page.paginationToken as string | undefined;
			calls++;
		} while (token);
		expect(calls).toBe(3);
		expect(seen.sort()).toEqual(
			alphaLeads(ctx.sandbox)
				.map((l) => l.id)
				.sort(),
		);
		const requests = apiRequests(ctx.sandbox, '/v1/leads');
		expect(requests.map((r) => Object.keys(r.query).sort())).toEqual([
			['limit'],
			['cursor', 'limit'],
			['cursor', 'limit'],
		]);
	});

	test('filters the page by name, phone or email, case-insensitively', async () => {
		const target = alphaLeads(ctx.sandbox)[0];
		const byName = await search('searchLeads', {}, target.name.toUpperCase());
		expect(byName.results).toContainEqual({
			name: `${target.name} (${target.phone})`,
			value: target.id,
		});
		expect(
			byName.results.every((r) => String(r.name).toLowerCase().includes(target.name.toLowerCase())),
		).toBe(true);
		const byPhone = await search('searchLeads', {}, target.phone);
		expect(byPhone.results.map((r) => r.value)).toEqual([target.id]);
	});
	test('a match on a later page is found in one search, reading no more pages than needed', async () => {
		// The list is newest first: the oldest lead sits on the last of the three pages.
		const oldest = [...alphaLeads(ctx.sandbox)].sort((a, b) =>
			a.created_at.localeCompare(b.created_at),
		)[0];
		ctx.sandbox.control.clearRequests();
		const result = await search('searchLeads', {}, oldest.phone);
		expect(result.results.map((r) => r.value)).toEqual([oldest.id]);
		expect(result.paginationToken).toBeUndefined();
		expect(apiRequests(ctx.sandbox, '/v1/leads')).toHaveLength(3);
	});
});

describe('From List: agents and conversations', () => {
	test('lists agents with their status', async () => {
		const agents = ctx.sandbox.control
			.state()
			.agents.filter((a) => a.organization_id === 'org_alpha');
		const result = await search('searchAgents', {});
		expect(result.results.map((r) => r.value).sort()).toEqual(agents.map((a) => a.id).sort());
		expect(result.paginationToken).toBeUndefined();
	});

	test('lists only the conversations of the lead chosen in the node', async () => {
		const conversations = ctx.sandbox.control
			.state()
			.conversations.filter((c) => c.organization_id === 'org_alpha');
		const leadId = conversations[0].lead_id;
		const result = await search('searchConversations', {
			resource: 'conversation',
			operation: 'get',
			lead: ref('list', leadId),
		});
		expect(result.results.map((r) => r.value).sort()).toEqual(
			conversations
				.filter((c) => c.lead_id === leadId)
				.map((c) => c.id)
				.sort(),
		);
		expect(apiRequests(ctx.sandbox, '/v1/conversations').at(-1)?.query.lead_id).toBe(leadId);
	});

	test('without a lead lists all conversations, 25 a page, each row named by its lead', async () => {
		const result = await search('searchConversations', {
			resource: 'conversation',
			operation: 'get',
		});
		expect(result.results).toHaveLength(25);
		expect(result.paginationToken).toEqual(expect.any(String));
		expect(apiRequests(ctx.sandbox, '/v1/conversations').at(-1)?.query).toEqual({ limit: '25' });
		const state = ctx.sandbox.control.state();
		for (const row of result.results) {
			const conversation = state.conversations.find((c) => c.id === row.value)!;
			const lead = state.leads.find((l) => l.id === conversation.lead_id)!;
			expect(row.name.startsWith(`${lead.name} · `)).toBe(true);
			// The date and time of the last message, whole.
			expect(row.name).toMatch(/ · \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
		}
	});

	test("Send Message's list holds only open conversations that are not phone calls", async () => {
		const state = ctx.sandbox.control.state();
		const canTake = new Set(
			state.conversations
				.filter(
					(c) => c.organization_id === 'org_alpha' && c.status === 'open' && c.channel !== 'phone',
				)
				.map((c) => c.id),
		);
		const listed: string[] = [];
		let token: string | undefined;
		do {
			const page = await search(
				'searchOpenConversations',
				{ resource: 'conversation', operation: 'sendMessage' },
				undefined,
				token,
			);
			listed.push(...page.results.map((r) => String(r.value)));
			token = page.paginationToken as string | undefined;
		} while (token);
		expect(listed.sort()).toEqual([...canTake].sort());
		// Asked of the service on the first page; later pages follow its cursor.
		expect(
			apiRequests(ctx.sandbox, '/v1/conversations').some((r) => r.query.status === 'open'),
		).toBe(true);
	});

	test("a search finds a conversation by its lead's name", async () => {
		const state = ctx.sandbox.control.state();
		const open = state.conversations.find(
			(c) => c.organization_id === 'org_alpha' && c.status === 'open' && c.channel !== 'phone',
		)!;
		const name = state.leads.find((l) => l.id === open.lead_id)!.name;
		const result = await search(
			'searchOpenConversations',
			{ resource: 'conversation', operation: 'sendMessage' },
			name,
		);
		expect(result.results.map((r) => r.value)).toContain(open.id);
	});
});
