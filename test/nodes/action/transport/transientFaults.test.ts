// Faults worth another attempt: retried reads and updates, and lists that fail whole rather than short.

import { MAX_TRANSIENT_RETRIES } from '../../../../nodes/shared/transport/retryPolicy';
import { runActionNode } from '../../../../harness/engine';
import { freePort } from '../../../../harness/support/ports';
import { alphaLeads, apiRequests, jsonOf, ref, run, visibleTrace } from '../helpers';
import { useTransportSandbox } from './setup';

const { ctx, GET_LEAD, statuses } = useTransportSandbox();

describe('transient faults on reads and updates', () => {
	test('a GET answered 503 twice is retried and succeeds', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 503, count: 2 });
		const result = await run(ctx.sandbox, GET_LEAD());
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toHaveLength(1);
		expect(statuses()).toEqual([503, 503, 200]);
	});

	test('a GET still failing after 8 retries fails with the status and the service message', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 500, count: 20 });
		const result = await run(ctx.sandbox, GET_LEAD());
		expect(result.error?.httpCode).toBe('500');
		expect(result.error?.message).toBe('The service failed to process the request (HTTP 500)');
		expect(result.error?.description).toMatch(
			/^HTTP 500 internal_error: Injected fault: status 500\./,
		);
		expect(result.error?.description).toMatch(/Failed again after 8 retries over \d+ s/);
		expect(statuses()).toEqual(Array(MAX_TRANSIENT_RETRIES + 1).fill(500));
		const retries = result.logs.filter((line) => /HTTP 500; retry \d+ of 8 in \d+ ms/.test(line));
		expect(retries).toHaveLength(MAX_TRANSIENT_RETRIES);
		expect(visibleTrace(result)).not.toContain(ctx.sandbox.keys.full);
	});

	test('a PATCH answered 502 is retried and applied once', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 502, method: 'PATCH' });
		const lead = alphaLeads(ctx.sandbox)[0];
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'update',
			lead: ref('id', lead.id),
			updateFields: { status: 'closed' },
		});
		expect(jsonOf(result)[0].status).toBe('closed');
		expect(statuses()).toEqual([502, 200]);
	});

	test.each(['drop', 'dropAfterProcessing'] as const)(
		'a GET whose connection is cut (%s) is retried and succeeds',
		async (kind) => {
			ctx.sandbox.control.injectFaults({ kind });
			const result = await run(ctx.sandbox, GET_LEAD());
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toHaveLength(1);
			expect(apiRequests(ctx.sandbox)).toHaveLength(2);
			expect(statuses()[1]).toBe(200);
		},
	);

	test('Return All survives a dropped connection in the middle without duplicates', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'delay', delayMs: 0 });
		ctx.sandbox.control.injectFaults({ kind: 'drop' });
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'getAll',
			returnAll: true,
		});
		const ids = jsonOf(result).map((lead) => lead.id);
		expect(ids).toHaveLength(250);
		expect(new Set(ids).size).toBe(250);
		expect(apiRequests(ctx.sandbox)).toHaveLength(4);
	});

	test('a GET to a port nothing listens on fails clearly after the retries', async () => {
		const port = await freePort();
		const result = await runActionNode(GET_LEAD(), {
			apiKey: ctx.sandbox.keys.full,
			baseUrl: `http://127.0.0.1:${port}/v1`,
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(
			/^Could not complete GET \/leads\/lead_\S+: the service refused the connection after 9 attempts$/,
		);
		expect(result.error?.description).toMatch(/ECONNREFUSED/);
	});
});

describe('a list never ends silently with part of its pages', () => {
	test('a page failing after the retries fails the item, naming the page and the records read', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'delay', delayMs: 0 });
		ctx.sandbox.control.injectFaults({
			kind: 'status',
			status: 503,
			count: MAX_TRANSIENT_RETRIES + 1,
		});
		const result = await run(ctx.sandbox, {
			resource: 'lead',
			operation: 'getAll',
			returnAll: true,
		});
		expect(result.status).toBe('error');
		expect(result.output('Lead Conversations')).toEqual([]);
		expect(result.error?.httpCode).toBe('503');
		expect(result.error?.message).toBe(
			'The service failed to process the request (HTTP 503) (stopped at page 2 of /leads after 100 records were read; none are returned)',
		);
		expect(statuses()).toEqual([200, ...Array(MAX_TRANSIENT_RETRIES + 1).fill(503)]);
	});

	test('a refused cursor fails the item, naming the page and the records read', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'badCursor' });
		const result = await run(ctx.sandbox, { resource: 'lead', operation: 'getAll', limit: 220 });
		expect(result.error?.httpCode).toBe('400');
		expect(result.error?.message).toMatch(
			/^The service rejected the request as invalid: .*cursor.*\(stopped at page 2 of \/leads after 100 records were read; none are returned\)$/,
		);
		expect(statuses()).toEqual([200, 400]);
	});

	test('with continue on fail the failed list is one error item, the next item still runs', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'badCursor' });
		const result = await run(
			ctx.sandbox,
			{ resource: 'lead', operation: 'getAll', limit: 150 },
			{ continueOnFail: true, inputItems: [{}, {}] },
		);
		const output = result.output('Lead Conversations');
		expect(output).toHaveLength(1 + 150);
		expect(output[0]).toEqual({
			json: expect.objectContaining({
				error: expect.stringMatching(/stopped at page 2/),
				httpCode: '400',
			}),
			pairedItem: { item: 0 },
		});
		expect(output.slice(1).every((item) => (item.pairedItem as { item: number }).item === 1)).toBe(
			true,
		);
	});
});
