// What the user reads when the service refuses or answers oddly, and that the key is never in it.

import { MAX_TRANSIENT_RETRIES } from '../../../../nodes/shared/transport/retryPolicy';
import { runActionNode } from '../../../../harness/engine';
import { apiRequests, jsonOf, ref, run, visibleTrace } from '../helpers';
import { startScriptedService } from './scriptedService';
import { useTransportSandbox } from './setup';

const { ctx, GET_LEAD, CREATE_LEAD, statuses } = useTransportSandbox();

describe('errors the user can act on, never with the API key', () => {
	test('401 (revoked key): the key is missing, invalid or revoked', async () => {
		const result = await run(ctx.sandbox, GET_LEAD(), { key: 'revoked' });
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.message).toBe('The API key was rejected');
		expect(result.error?.description).toMatch(/^HTTP 401 unauthorized: API key has been revoked\./);
		expect(result.error?.description).toMatch(/missing, invalid or revoked/);
		expect(statuses()).toEqual([401]);
		expect(visibleTrace(result)).not.toContain(ctx.sandbox.keys.revoked);
	});

	test('403 (suspended account): restricted key, suspended account or plan tier', async () => {
		const result = await run(ctx.sandbox, GET_LEAD(), { key: 'suspended' });
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.description).toMatch(/HTTP 403 forbidden: The account is suspended/);
		expect(result.error?.description).toMatch(/scope-restricted.*suspended.*plan tier/);
		expect(visibleTrace(result)).not.toContain(ctx.sandbox.keys.suspended);
	});

	test('403 (read-only key writing) is not retried', async () => {
		const result = await run(ctx.sandbox, CREATE_LEAD('+5491100000005'), { key: 'readOnly' });
		expect(result.error?.httpCode).toBe('403');
		expect(statuses()).toEqual([403]);
		expect(visibleTrace(result)).not.toContain(ctx.sandbox.keys.readOnly);
	});

	test('a Base URL without /v1 is refused before anything is sent', async () => {
		const result = await runActionNode(GET_LEAD(), {
			apiKey: ctx.sandbox.keys.full,
			baseUrl: ctx.sandbox.baseUrl.replace(/\/v1$/, ''),
		});
		expect(result.error?.message).toMatch(/^Base URL must be an http\(s\) address ending in \/v1/);
		expect(apiRequests(ctx.sandbox)).toHaveLength(0);
	});

	test('none of the failures above or below put the key in logs or output', async () => {
		// A POST answered 500 is not retried: the failure comes at once.
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 500, method: 'POST' });
		const failed = await run(ctx.sandbox, CREATE_LEAD('+5491100000006'), {
			continueOnFail: true,
		});
		expect(jsonOf(failed)[0].error).toBeDefined();
		expect(visibleTrace(failed)).not.toContain(ctx.sandbox.keys.full);
	});
});

describe('answers in shapes the specification does not show', () => {
	test('a plain-text 502 is retried, then reported with its text', async () => {
		const service = await startScriptedService([], {
			status: 502,
			body: 'Bad Gateway from the proxy',
			headers: { 'Content-Type': 'text/plain' },
		});
		try {
			const result = await runActionNode(GET_LEAD(), {
				apiKey: 'k-plain-text-test',
				baseUrl: service.baseUrl,
			});
			expect(service.received).toHaveLength(MAX_TRANSIENT_RETRIES + 1);
			expect(result.error?.httpCode).toBe('502');
			expect(result.error?.description).toMatch(/^HTTP 502: Bad Gateway from the proxy\./);
		} finally {
			await service.close();
		}
	});

	test('an empty 400 body still gives the status', async () => {
		const service = await startScriptedService([], { status: 400 });
		try {
			const result = await runActionNode(GET_LEAD(), {
				apiKey: 'k-empty-body-test',
				baseUrl: service.baseUrl,
			});
			expect(result.error?.httpCode).toBe('400');
			expect(result.error?.message).toBe('The service rejected the request as invalid');
			expect(result.error?.description).toMatch(/^HTTP 400 \(no message in the response\)\./);
		} finally {
			await service.close();
		}
	});

	test('a 429 without any rate-limit header backs off and retries', async () => {
		const lead = { id: 'lead_1', name: 'A' };
		const service = await startScriptedService([{ status: 429 }], {
			status: 200,
			body: JSON.stringify(lead),
			headers: { 'Content-Type': 'application/json' },
		});
		try {
			const result = await runActionNode(
				{ resource: 'lead', operation: 'get', lead: ref('id', 'lead_1') },
				{ apiKey: 'k-no-header-test', baseUrl: service.baseUrl },
			);
			expect(jsonOf(result)).toEqual([lead]);
			expect(service.received).toHaveLength(2);
			expect(service.received[1].at - service.received[0].at).toBeGreaterThanOrEqual(450);
			expect(result.logs.some((line) => line.includes('(backoff)'))).toBe(true);
		} finally {
			await service.close();
		}
	});

	test('a service echoing the key in an error message has it redacted', async () => {
		const apiKey = 'k-echoed-secret-1234567890';
		const service = await startScriptedService([], {
			status: 401,
			body: JSON.stringify({ error: 'unauthorized', message: `Unknown key ${apiKey}` }),
			headers: { 'Content-Type': 'application/json' },
		});
		try {
			const result = await runActionNode(GET_LEAD(), { apiKey, baseUrl: service.baseUrl });
			expect(result.error?.description).toMatch(/Unknown key \[redacted\]/);
			expect(visibleTrace(result)).not.toContain(apiKey);
		} finally {
			await service.close();
		}
	});
});
