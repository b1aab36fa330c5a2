import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import {
	listExecutions,
	nodeOutput,
	waitForExecutions,
	waitForTriggerStatus,
} from '../../../harness/real-n8n/executions';
import {
	N8nPublicApi,
	N8nSession,
	startN8n,
	type N8nServer,
	startN8nWithApi,
} from '../../../harness/real-n8n/n8n-server';
import { e2eWorkflowsDir } from '../../../harness/real-n8n/paths';
import { waitFor } from '../../../harness/real-n8n/processes';
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	importWorkflows,
	prepareUserFolder,
} from '../../../harness/real-n8n/setup';
import { makeSelfSignedCertificate, type Certificate } from '../../../harness/real-n8n/tls';
import { deliverAgain, deliverForged, firstQualifiedDelivery } from '../support/deliveries';

// The trigger inside a real n8n serving HTTPS, as a user runs it behind a TLS address: n8n hands
// the node an https:// production URL, the sandbox delivers signed events to it.

const TRIGGER_WORKFLOW = 'LcE2eTrigger0001';
const TRIGGER_WEBHOOK_ID = '5f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d01';

let sandbox: RunningSandbox;
let userFolder: string;
let n8n: N8nServer;
let session: N8nSession;
let api: N8nPublicApi;
let apiKey: string;
let certificate: Certificate;

/** What `deliver` sends starts no execution: the count is the same a moment after its answer. */
async function expectNoExecution(deliver: () => Promise<void>) {
	const before = (await listExecutions(api, TRIGGER_WORKFLOW)).length;
	await deliver();
	await new Promise((r) => setTimeout(r, 1500));
	expect(await listExecutions(api, TRIGGER_WORKFLOW)).toHaveLength(before);
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, leads: 60, seed: 4242 });
	userFolder = await prepareUserFolder('trigger', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	await importWorkflows(userFolder, [join(e2eWorkflowsDir, 'trigger-lead-events.json')]);
	certificate = await makeSelfSignedCertificate(userFolder);
	({ n8n, session, apiKey, api } = await startN8nWithApi({ userFolder, certificate }));
}, 240_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

function onlySubscription() {
	const subscriptions = sandbox.control.webhooks();
	expect(subscriptions).toHaveLength(1);
	return subscriptions[0];
}

describe('Lead Conversations Trigger in n8n 2.41.1 over HTTPS', () => {
	it('activation subscribes n8n’s https production URL to the chosen events', async () => {
		const res = await api.request('POST', `/workflows/${TRIGGER_WORKFLOW}/activate`);
		expect(res.status).toBe(200);

		const [status] = await waitForTriggerStatus(userFolder, TRIGGER_WORKFLOW);
		expect(status).toMatchObject({ status: 'activated', errorMessage: null });

		const subscription = onlySubscription();
		expect(subscription.url).toBe(`${n8n.webhookUrl}webhook/${TRIGGER_WEBHOOK_ID}/webhook`);
		expect(subscription.url.startsWith('https://localhost:')).toBe(true);
		expect([...subscription.events].sort()).toEqual(['lead.created', 'lead.qualified']);
		const creation = sandbox.control
			.requests()
			.filter((r) => r.method === 'POST' && r.path === '/v1/webhooks');
		expect(creation).toHaveLength(1);
		expect(creation[0]).toMatchObject({ status: 201, key: 'full' });
	});

	it('a signed lead.qualified event starts one execution carrying the lead', async () => {
		const lead = sandbox.control
			.state()
			.leads.find((l) => l.organization_id === 'org_alpha' && l.status === 'new')!;
		sandbox.control.clearDeliveries();
		sandbox.control.qualifyLead(lead.id, 88);
		await sandbox.control.whenDeliveriesSettled();

		const [delivery] = sandbox.control.deliveries();
		expect(delivery).toMatchObject({ event: 'lead.qualified', attempt: 1, ok: true, status: 200 });

		const [execution] = await waitForExecutions(api, TRIGGER_WORKFLOW, 1);
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('webhook');
		const [item] = nodeOutput(execution, 'Lead Conversations Trigger');
		expect(item.json).toMatchObject({
			event: 'lead.qualified',
			organization_id: 'org_alpha',
			data: { id: lead.id, name: lead.name, score: 88, status: 'qualified' },
		});
	});

	it('a delivery with a bad signature is refused with 401 and starts nothing', async () => {
		const { id } = onlySubscription();
		await expectNoExecution(async () => {
			const result = await deliverForged(sandbox, id);
			expect(result.status).toBe(401);
		});
	});

	it('a retried delivery (same body, same signature) is answered 200 and starts nothing', async () => {
		const first = firstQualifiedDelivery(sandbox);
		await expectNoExecution(async () => {
			const retry = await deliverAgain(sandbox, first);
			expect(retry.status).toBe(200);
		});
	});

	it('a second, different event still starts its own execution', async () => {
		const before = (await listExecutions(api, TRIGGER_WORKFLOW)).length;
		const created = sandbox.control.createChannelLead({ name: 'Rosa Prieto', channel: 'web_form' });
		await sandbox.control.whenDeliveriesSettled();

		const executions = await waitForExecutions(api, TRIGGER_WORKFLOW, before + 1);
		const newest = executions.find(
			(e) => nodeOutput(e, 'Lead Conversations Trigger')[0]?.json.event === 'lead.created',
		);
		expect(newest).toBeDefined();
		expect(nodeOutput(newest!, 'Lead Conversations Trigger')[0].json.data).toMatchObject({
			id: created.id,
			name: 'Rosa Prieto',
		});
	});

	it('the credential’s Test button: a good key passes, a bad key says why', async () => {
		const good = await session.request('POST', '/credentials/test', {
			credentials: {
				id: CREDENTIAL_ID,
				name: CREDENTIAL_NAME,
				type: 'leadConversationsApi',
				data: { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
			},
		});
		expect(good.status).toBe(200);
		expect(good.json.data).toMatchObject({ status: 'OK' });

		const bad = await session.request('POST', '/credentials/test', {
			credentials: {
				id: CREDENTIAL_ID,
				name: CREDENTIAL_NAME,
				type: 'leadConversationsApi',
				data: { apiKey: 'lc_not_a_real_key', baseUrl: sandbox.baseUrl },
			},
		});
		expect(bad.status).toBe(200);
		expect(bad.json.data.status).toBe('Error');
		expect(bad.json.data.message).toMatch(/API key rejected/);
		expect(bad.json.data.message).not.toContain('lc_not_a_real_key');
	});

	it('after n8n restarts, the subscription still delivers; a retry of an earlier event runs again', async () => {
		// What the README promises: duplicates are dropped within one running n8n. The memory of
		// seen deliveries is not kept across a restart (nor shared between queue-mode processes).
		const first = firstQualifiedDelivery(sandbox);
		const before = (await listExecutions(api, TRIGGER_WORKFLOW)).length;
		await n8n.stop();
		n8n = await startN8n({ userFolder, certificate, port: n8n.port });
		session = await N8nSession.signIn(n8n);
		api = new N8nPublicApi(n8n, apiKey);

		expect(onlySubscription().id).toBe(first.subscriptionId);
		const retry = await deliverAgain(sandbox, first);
		expect(retry.status).toBe(200);
		await waitForExecutions(api, TRIGGER_WORKFLOW, before + 1);

		const lead = sandbox.control
			.state()
			.leads.find((l) => l.organization_id === 'org_alpha' && l.status === 'new')!;
		sandbox.control.qualifyLead(lead.id, 77);
		await sandbox.control.whenDeliveriesSettled();
		const executions = await waitForExecutions(api, TRIGGER_WORKFLOW, before + 2);
		expect(
			executions.some(
				(e) => nodeOutput(e, 'Lead Conversations Trigger')[0]?.json.data.id === lead.id,
			),
		).toBe(true);
	});

	it('deactivation deletes the subscription: nothing is left behind', async () => {
		const res = await api.request('POST', `/workflows/${TRIGGER_WORKFLOW}/deactivate`);
		expect(res.status).toBe(200);

		await waitFor('the subscription to be deleted', () =>
			sandbox.control.webhooks().length === 0 ? true : undefined,
		);
		const deletion = sandbox.control.requests().filter((r) => r.method === 'DELETE');
		expect(deletion).toHaveLength(1);
		expect(deletion[0]).toMatchObject({ status: 204, key: 'full' });
	});
});
