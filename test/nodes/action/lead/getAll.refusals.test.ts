// Lead → Get Many: bad input refused before anything is sent, typed or from an expression.

import { apiRequests, jsonOf, run, useSandbox, operationRunner } from '../helpers';
import { expectRefusedBeforeSending, refusals, withExpression } from '../refusals';

const SEED_LEADS = 1200;
const ctx = useSandbox({ leads: SEED_LEADS }, { resetEach: false });
const runOperation = operationRunner(ctx, 'lead', 'getAll');

describe('Lead → Get Many, bad input is refused before sending', () => {
	test.each([
		[
			{ filters: { scoreMin: 101 } },
			/^Score At Least must be a whole number from 0 to 100 \(got 101\) \[item 0\]$/,
		],
		[{ filters: { scoreMax: -1 } }, /^Score At Most must be a whole number from 0 to 100/],
		[{ filters: { scoreMin: 12.5 } }, /^Score At Least must be a whole number/],
		[
			{ filters: { scoreMin: 80, scoreMax: 20 } },
			/^Score At Least \(80\) must not be greater than Score At Most \(20\)/,
		],
		[{ filters: { createdAfter: 'last tuesday' } }, /^Created After must be an ISO 8601 date-time/],
		[
			{ filters: { createdBefore: '2025-02-30T00:00:00Z' } },
			/^Created Before must be an ISO 8601 date-time/,
		],
		[
			{ filters: { createdAfter: '2025-06-01T00:00:00Z', createdBefore: '2025-05-01T00:00:00Z' } },
			/^Created After .* must not be later than Created Before/,
		],
		[{ limit: 0 }, /^Limit must be a whole number of at least 1 \(got 0\) \[item 0\]$/],
		[{ limit: -3 }, /^Limit must be a whole number of at least 1/],
		// Only New Since Last Run with a limit: the editor does not offer it (n8n drops the value),
		// but an expression can still turn Return All off.
		[
			{ returnAll: '={{ false }}', options: { onlyNewSinceLastRun: true } },
			/^Only New Since Last Run needs Return All/,
		],
	])('%p', async (parameters, message) => {
		const result = await runOperation({ ...(parameters as object) });
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});

	test('a date from an expression is accepted as a date object too', async () => {
		const result = await runOperation({
			limit: 5,
			filters: { createdAfter: '={{ $now.minus({ years: 5 }) }}' },
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(ctx.sandbox)[0].query.created_after).toMatch(/^\d{4}-\d{2}-\d{2}T/);
	});
});

describe('Lead → Get Many, values from expressions', () => {
	const listLeads = { resource: 'lead', operation: 'getAll', limit: 5 };
	const FILTER_CHANNELS = 'chat_app, social_a, social_b, marketplace, web_form, email, phone';

	test.each(
		refusals([
			['Return All', 'returnAll', 'no', 'must be true or false (got "no")'],
			['Limit', 'limit', 2.5, 'must be a whole number of at least 1 (got 2.5)'],
			['Limit', 'limit', '10', 'must be a whole number of at least 1 (got "10")'],
			['Channel', 'filters.channel', 'api', `must be one of ${FILTER_CHANNELS} (got "api")`],
			['Channel', 'filters.channel', 'fax', `must be one of ${FILTER_CHANNELS} (got "fax")`],
			[
				'Intent',
				'filters.intent',
				'buy_now',
				'must be one of purchase_30_days, purchase_90_days, browsing, unknown (got "buy_now")',
			],
			[
				'Status',
				'filters.status',
				'New',
				'must be one of new, in_conversation, qualified, assigned, closed, lost (got "New")',
			],
			[
				'Score At Least',
				'filters.scoreMin',
				'50',
				'must be a whole number from 0 to 100 (got "50")',
			],
			['Output', 'options.output', 'csv', 'must be one of compact, flat, raw (got "csv")'],
		]),
	)(
		'Get many leads refuses $field $shown from an expression, naming $field and item 0, before any request',
		async (refusal) => {
			await expectRefusedBeforeSending(ctx.sandbox, listLeads, refusal);
		},
	);

	// Offered with Return All only (n8n drops it otherwise).
	test.each(
		refusals([
			[
				'Only New Since Last Run',
				'options.onlyNewSinceLastRun',
				'yes',
				'must be true or false (got "yes")',
			],
		]),
	)(
		'Get many leads with Return All refuses $field $shown from an expression, naming $field and item 0',
		async (refusal) => {
			await expectRefusedBeforeSending(
				ctx.sandbox,
				{ resource: 'lead', operation: 'getAll', returnAll: true },
				refusal,
			);
		},
	);

	test.each(['filters.status', 'filters.intent', 'filters.channel', 'filters.scoreMin'])(
		'a %s expression that finds nothing (null) filters nothing',
		async (parameter) => {
			const result = await run(ctx.sandbox, withExpression(listLeads, parameter), {
				inputItems: [{ value: null }],
			});
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toHaveLength(5);
			expect(apiRequests(ctx.sandbox, '/v1/leads').map((r) => r.query)).toEqual([{ limit: '5' }]);
		},
	);
});
