import type { INodeParameters } from 'n8n-workflow';

import type { StoredConversation } from '../../../../sandbox';
import { apiRequests, jsonOf, pages, ref, run, useSandbox, operationRunner } from '../helpers';

const ctx = useSandbox({ leads: 600 }, { resetEach: false });
const runOperation = operationRunner(ctx, 'conversation', 'getAll');

function alphaConversations(): StoredConversation[] {
	return ctx.sandbox.control
		.state()
		.conversations.filter((conversation) => conversation.organization_id === 'org_alpha');
}

describe('Conversation → Get Many', () => {
	const FILTERS = ['lead', 'channel', 'status'] as const;
	const SUBSETS = Array.from({ length: 8 }, (_, mask) =>
		FILTERS.filter((_n, bit) => mask & (2 ** bit)),
	);

	test.each(SUBSETS.map((subset) => [subset.join(' + ') || 'no filter', subset] as const))(
		'Return All with %s: every match once, ⌈N/100⌉ requests',
		async (_name, subset) => {
			const all = alphaConversations();
			const busiestLead = [...all.map((c) => c.lead_id)].sort(
				(a, b) =>
					all.filter((c) => c.lead_id === b).length - all.filter((c) => c.lead_id === a).length,
			)[0];
			const values = { lead: busiestLead, channel: 'chat_app', status: 'open' };
			const filters: INodeParameters = {};
			if (subset.includes('lead')) filters.lead = ref('list', values.lead);
			if (subset.includes('channel')) filters.channel = values.channel;
			if (subset.includes('status')) filters.status = values.status;

			const result = await runOperation({ returnAll: true, filters });
			expect(result.error).toBeUndefined();
			const expected = all.filter(
				(c) =>
					(!subset.includes('lead') || c.lead_id === values.lead) &&
					(!subset.includes('channel') || c.channel === values.channel) &&
					(!subset.includes('status') || c.status === values.status),
			);
			const returned = jsonOf(result).map((c) => c.id as string);
			expect(new Set(returned).size).toBe(returned.length);
			expect(returned.sort()).toEqual(expected.map((c) => c.id).sort());
			const requests = apiRequests(ctx.sandbox, '/v1/conversations');
			expect(requests).toHaveLength(pages(expected.length));
			if (subset.includes('lead')) expect(requests[0].query.lead_id).toBe(values.lead);
			for (const later of requests.slice(1))
				expect(Object.keys(later.query).sort()).toEqual(['cursor', 'limit']);
		},
	);

	test('the unfiltered list spans at least 5 pages on this seed', () => {
		expect(pages(alphaConversations().length)).toBeGreaterThanOrEqual(5);
	});

	test('Limit 150 reads two pages of 100 and 50', async () => {
		const result = await runOperation({ limit: 150 });
		expect(jsonOf(result)).toHaveLength(150);
		expect(apiRequests(ctx.sandbox).map((r) => r.query.limit)).toEqual(['100', '50']);
	});

	test('a lead filter with the wrong prefix is refused before sending', async () => {
		const result = await run(
			ctx.sandbox,
			{
				resource: 'conversation',
				operation: 'getAll',
				filters: { lead: ref('id', '={{ $json.lead }}') },
			},
			{ inputItems: [{ lead: 'conv_1' }] },
		);
		expect(result.error?.message).toMatch(/^Filters → Lead must be an ID starting with "lead_"/);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});
});
