// Writes that must not happen twice: which failed POSTs are resent and which are not.

import { delays } from '../../../../nodes/shared/transport/delays';
import { runActionNode, startTestSandbox } from '../../../../harness/engine';
import { freePort } from '../../../../harness/support/ports';
import { apiRequests, jsonOf, ref, run } from '../helpers';
import { useTransportSandbox } from './setup';

const { ctx, CREATE_LEAD, statuses, leadsWithPhone } = useTransportSandbox();

describe('creating is never duplicated', () => {
	test.each([
		['drop', 0],
		['dropAfterProcessing', 1],
	] as const)('a POST whose connection is cut (%s) is not resent', async (kind, created) => {
		ctx.sandbox.control.injectFaults({ kind, method: 'POST' });
		const result = await run(ctx.sandbox, CREATE_LEAD('+5491100000001'));
		expect(result.error?.message).toBe(
			'Could not complete POST /leads: the connection to the service was closed before an answer arrived',
		);
		expect(result.error?.description).toMatch(/was not sent again/);
		expect(apiRequests(ctx.sandbox).filter((r) => r.method === 'POST')).toHaveLength(1);
		expect(leadsWithPhone('+5491100000001')).toHaveLength(created);
	});

	test('a POST answered 503 is not resent', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 503, method: 'POST' });
		const result = await run(ctx.sandbox, CREATE_LEAD('+5491100000002'));
		expect(result.error?.httpCode).toBe('503');
		expect(statuses()).toEqual([503]);
	});

	test('a POST answered 429 is resent after the wait and creates one lead', async () => {
		ctx.sandbox.control.injectFaults({ kind: 'status', status: 429, method: 'POST' });
		const result = await run(ctx.sandbox, CREATE_LEAD('+5491100000003'));
		expect(result.error).toBeUndefined();
		expect(statuses()).toEqual([429, 201]);
		expect(leadsWithPhone('+5491100000003')).toHaveLength(1);
	});

	test('a message whose connection is cut after processing is posted exactly once', async () => {
		const conversation = ctx.sandbox.control
			.state()
			.conversations.find((c) => c.organization_id === 'org_alpha' && c.status === 'open')!;
		ctx.sandbox.control.injectFaults({ kind: 'dropAfterProcessing', method: 'POST' });
		const result = await run(ctx.sandbox, {
			resource: 'conversation',
			operation: 'sendMessage',
			conversation: ref('id', conversation.id),
			content: 'Only once',
		});
		expect(result.status).toBe('error');
		const after = ctx.sandbox.control.state().conversations.find((c) => c.id === conversation.id)!;
		expect(after.messages.filter((m) => m.content === 'Only once')).toHaveLength(1);
	});

	test('a POST refused before any connection is resent once the service is up, creating one lead', async () => {
		const port = await freePort();
		const seed = 777;
		// Same seed, same keys: learn them from a throw-away instance first.
		const probe = await startTestSandbox({ seed, leads: 0 });
		const keys = probe.keys;
		await probe.close();
		// The service comes up during the node's first wait after the refused connection, so the
		// retry meets it whatever the machine's speed.
		let later: ReturnType<typeof startTestSandbox> | undefined;
		const jump = delays.sleep;
		delays.sleep = async (ms) => {
			later ??= startTestSandbox({ port, seed, leads: 5 });
			await later;
			await jump(ms);
		};
		const result = await runActionNode(CREATE_LEAD('+5491100000004'), {
			apiKey: keys.full,
			baseUrl: `http://127.0.0.1:${port}/v1`,
		});
		const service = await (later ?? startTestSandbox({ port, seed, leads: 5 }));
		try {
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)[0]).toMatchObject({ phone: '+5491100000004' });
			expect(service.control.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
			expect(
				service.control.state().leads.filter((l) => l.phone === '+5491100000004'),
			).toHaveLength(1);
			expect(result.logs.some((line) => /POST \/leads: .*ECONNREFUSED.*retry 1/.test(line))).toBe(
				true,
			);
		} finally {
			await service.close();
		}
	});
});
