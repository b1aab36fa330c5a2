// The error paths where an API key or a signing secret is most likely to slip out: a revoked or
// suspended key, a service that is unreachable, a rate limit given up on, a failing
// subscription, the credential test. Each file of the suite also searches everything it
// captured; this one adds the paths the other scenarios do not take.
//
// Nothing here is measured in time, and the retry paths below would wait about four minutes in
// real time (back-off after refused connections and failing DELETEs, waits for 429s and for the
// rate-limit window). The node's waits are jumped over instead of slept (test/nodes/clock.ts):
// every attempt still goes over real HTTP, every retry is still made, and every text the node
// writes on the way is the one it writes in real time.

import type { INodeParameters } from 'n8n-workflow';

import { createTriggerHarness, runActionNode, runCredentialTest } from '../../harness/engine';
import { MAX_RATE_LIMIT_RETRIES } from '../../nodes/shared/transport/rateLimit';
import { MAX_TRANSIENT_RETRIES } from '../../nodes/shared/transport/retryPolicy';
import { useJumpingClock } from '../nodes/clock';
import { byId, credentialsOf, useTracedSandbox } from './support/common';
import { SecretTrace } from './support/trace';

const trace = new SecretTrace('secrets.reliability.ts');

// One-second rate-limit windows: the waits for a window to reset after the injected 429s stay
// short, so the 429 scenario gives up because its retries ran out, not because its 120 s budget did.
const ctx = useTracedSandbox(trace, { windowMs: 1_000 });
useJumpingClock();

const GET_LEAD: INodeParameters = {
	resource: 'lead',
	operation: 'get',
	lead: byId('lead_missing1'),
};

it('the search finds a key planted where it must not be (the scan itself works)', () => {
	const probe = new SecretTrace('probe');
	probe.addSecret(ctx.sandbox.keys.full, 'an API key');
	probe.addText('a planted log line', `debug: sending X-API-Key ${ctx.sandbox.keys.full}`);
	expect(probe.find()).toEqual([{ secret: 'an API key', where: 'a planted log line' }]);
});

it.each([
	['a revoked key (401)', 'revoked', GET_LEAD],
	['a suspended account (403)', 'suspended', GET_LEAD],
	[
		'a read-only key writing (403)',
		'readOnly',
		{
			resource: 'lead',
			operation: 'create',
			name: 'Ana',
			phone: '+5491155550123',
			channel: 'api',
			additionalFields: {},
		},
	],
	['a lead of another organization (404)', 'otherOrganization', GET_LEAD],
] as const)('%s: the error names the status, never the key', async (_label, key, parameters) => {
	const result = await runActionNode(parameters, credentialsOf(ctx.sandbox, key));
	trace.addRun(`${key} key`, result);
	expect(result.status).toBe('error');
	expect(result.error?.httpCode).toMatch(/^4\d\d$/);
});

it('an unreachable service (connection refused, retried): the error never shows the key', async () => {
	const result = await runActionNode(GET_LEAD, {
		apiKey: ctx.sandbox.keys.full,
		baseUrl: 'http://127.0.0.1:9/v1',
	});
	trace.addRun('connection refused', result);
	expect(result.status).toBe('error');
	expect(result.error?.message).toContain(`after ${MAX_TRANSIENT_RETRIES + 1} attempts`);
});

it('a Base URL carrying the key in its user part is refused without echoing it', async () => {
	const result = await runActionNode(GET_LEAD, {
		apiKey: ctx.sandbox.keys.full,
		baseUrl: `http://${ctx.sandbox.keys.full}@127.0.0.1:${ctx.sandbox.port}/api`,
	});
	trace.addRun('base URL with user info', result);
	expect(result.status).toBe('error');
});

it('a 429 given up on once the retries run out: the error never shows the key', async () => {
	ctx.sandbox.control.injectFaults({ kind: 'status', status: 429, count: 20 });
	const result = await runActionNode(GET_LEAD, credentialsOf(ctx.sandbox), {
		continueOnFail: true,
	});
	ctx.sandbox.control.clearFaults();
	trace.addRun('429', result);
	expect(result.status).toBe('success');
	const answered429 = ctx.sandbox.control
		.requests()
		.filter((request) => request.path === '/v1/leads/lead_missing1' && request.status === 429);
	expect(answered429).toHaveLength(MAX_RATE_LIMIT_RETRIES + 1);
	expect(JSON.stringify(result.output('Lead Conversations'))).toContain(
		`Gave up after ${MAX_RATE_LIMIT_RETRIES} retries`,
	);
});

it('the credential test with a revoked key', async () => {
	const outcome = await runCredentialTest(credentialsOf(ctx.sandbox, 'revoked'));
	trace.addText('credential test', JSON.stringify(outcome));
	expect(outcome.status).toBe('Error');
});

it('a trigger whose subscription fails, and one whose deliveries are refused: neither the key nor the secret is shown', async () => {
	const parameters = { events: ['lead.qualified'], subscription: 'automatic', options: {} };
	const failing = createTriggerHarness(parameters, credentialsOf(ctx.sandbox, 'readOnly'), {
		webhookBaseUrl: 'https://n8n.dealer-group.example/',
	});
	try {
		await failing.activate();
	} catch (error) {
		trace.addError('subscription refused', error);
	}
	trace.addText('failing trigger logs', failing.logs.join('\n'));

	const trigger = createTriggerHarness(parameters, credentialsOf(ctx.sandbox), {
		webhookBaseUrl: 'https://n8n.dealer-group.example/',
	});
	await trigger.activate();
	const secret = String(trigger.staticData.signingSecret);
	trace.addSecret(secret, 'the signing secret');
	const body = JSON.stringify({ event: 'lead.qualified', data: { id: 'lead_1' } });
	for (const header of ['', 'zz', secret, ctx.sandbox.keys.full]) {
		trace.addDelivery(
			'refused delivery',
			await trigger.deliver({ body, headers: { 'x-service-signature': header } }),
		);
	}
	ctx.sandbox.control.injectFaults({ kind: 'status', status: 500, count: 20, method: 'DELETE' });
	await trigger.deactivate();
	ctx.sandbox.control.clearFaults();
	trace.addText('trigger logs', trigger.logs.join('\n'));
	// The DELETE really failed on every attempt, and the failure was logged.
	expect(trigger.logs.join('\n')).toContain(
		`HTTP 500; retry ${MAX_TRANSIENT_RETRIES} of ${MAX_TRANSIENT_RETRIES}`,
	);
	expect(trigger.logs.join('\n')).toContain('could not delete subscription');
	// The secret really was in play: the subscription exists and is remembered for deletion.
	expect(ctx.sandbox.control.webhooks().some((webhook) => webhook.secret === secret)).toBe(true);
});

it('shows neither the API keys nor the signing secret in any error, output item, answer or log line of this file', () => {
	expect(trace.scan()).toEqual([]);
});
