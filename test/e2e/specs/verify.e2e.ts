import { copyFileSync, mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';

import { startSandbox, type DeliveryLogEntry, type RunningSandbox } from '../../../sandbox';
import {
	listExecutions,
	nodeOutput,
	waitForExecutions,
	waitForTriggerStatus,
	type ExecutionSummary,
} from '../../../harness/real-n8n/executions';
import { n8nCli } from '../../../harness/real-n8n/n8n-cli';
import {
	N8nPublicApi,
	N8nSession,
	startN8n,
	type N8nServer,
} from '../../../harness/real-n8n/n8n-server';
import { prepareUserFolder } from '../../../harness/real-n8n/setup';
import { makeSelfSignedCertificate, type Certificate } from '../../../harness/real-n8n/tls';
import { examplesDir } from '../../../harness/real-n8n/paths';
import { SIGNING_SECRET_CREDENTIAL_TYPE } from '../../../harness/real-n8n/verifyWorkflows';
import { freePort } from '../../../harness/support/ports';
import { deliverAgain, deliverForged, firstQualifiedDelivery } from '../support/deliveries';

// The example "verify events received by a Webhook node" in a real n8n over HTTPS: n8n's own
// Webhook node receives the deliveries and Event: Verify checks them. The endpoint is added the
// way the service's dashboard does (a subscription whose secret the user pastes into the
// signing-secret credential); the sandbox delivers to it.

const EXAMPLE = 'verified-webhook-events.json';
const WORKFLOW = 'LcExampleVerify';
const PATH = 'lead-events-verified';
const SECRET_CREDENTIAL = { id: 'LcSigningSecret01', name: 'Lead Conversations signing secret' };

let sandbox: RunningSandbox;
let userFolder: string;
let n8n: N8nServer;
let api: N8nPublicApi;
let apiKey: string;
let certificate: Certificate;
let port: number;
let subscriptionId: string;

async function subscribe(url: string): Promise<{ id: string; secret: string }> {
	const res = await fetch(`${sandbox.baseUrl}/webhooks`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'X-API-Key': sandbox.keys.full },
		body: JSON.stringify({ url, events: ['lead.qualified', 'lead.created'] }),
	});
	expect(res.status).toBe(201);
	return (await res.json()) as { id: string; secret: string };
}

async function startAndSignIn(): Promise<void> {
	n8n = await startN8n({ userFolder, certificate, port, readyTimeoutMs: 300_000 });
	if (!apiKey) apiKey = await (await N8nSession.signIn(n8n)).createApiKey();
	api = new N8nPublicApi(n8n, apiKey);
}

/** The execution newer than `before` executions, once it finished. */
async function nextExecution(before: number): Promise<ExecutionSummary> {
	const executions = await waitForExecutions(api, WORKFLOW, before + 1);
	return executions[0];
}

/** A delivery sent again starts a run that passes it to Rejected only, as a duplicate. */
async function expectRejectedAsDuplicate(delivery: DeliveryLogEntry, before: number) {
	const retry = await deliverAgain(sandbox, delivery);
	expect(retry.status).toBe(200);
	const execution = await nextExecution(before);
	expect(nodeOutput(execution, 'Verified')).toEqual([]);
	expect(nodeOutput(execution, 'Rejected').map((item) => item.json.reason)).toEqual(['duplicate']);
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, leads: 40, seed: 1313 });
	userFolder = await prepareUserFolder('verify', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	port = await freePort();
	const subscription = await subscribe(`https://localhost:${port}/webhook/${PATH}`);
	subscriptionId = subscription.id;

	const credentials = join(userFolder, 'signing-secret.json');
	writeFileSync(
		credentials,
		JSON.stringify([
			{
				...SECRET_CREDENTIAL,
				type: SIGNING_SECRET_CREDENTIAL_TYPE,
				data: { signingSecret: subscription.secret },
			},
		]),
	);
	// Generous: each CLI command boots most of n8n, which takes long on a busy machine.
	await n8nCli(userFolder, ['import:credentials', `--input=${credentials}`], {
		timeoutMs: 300_000,
	});
	const workflows = join(userFolder, 'workflows-to-import');
	mkdirSync(workflows, { recursive: true });
	copyFileSync(join(examplesDir, EXAMPLE), join(workflows, EXAMPLE));
	await n8nCli(userFolder, ['import:workflow', '--separate', `--input=${workflows}`], {
		timeoutMs: 300_000,
	});
	certificate = await makeSelfSignedCertificate(userFolder);
	await startAndSignIn();
	const res = await api.request('POST', `/workflows/${WORKFLOW}/activate`);
	expect(res.status).toBe(200);
	await waitForTriggerStatus(userFolder, WORKFLOW);
}, 900_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

describe('Webhook → Event: Verify in n8n 2.41.1 over HTTPS', () => {
	it('a signed lead.qualified delivery is answered at once and comes out of Verified as the event', async () => {
		const lead = sandbox.control
			.state()
			.leads.find((l) => l.organization_id === 'org_alpha' && l.status === 'new')!;
		sandbox.control.clearDeliveries();
		sandbox.control.qualifyLead(lead.id, 91);
		await sandbox.control.whenDeliveriesSettled();
		const [delivery] = sandbox.control.deliveries();
		expect(delivery).toMatchObject({ event: 'lead.qualified', attempt: 1, ok: true, status: 200 });

		const execution = await nextExecution(0);
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'Verified').map((item) => item.json)).toEqual([
			expect.objectContaining({
				event: 'lead.qualified',
				organization_id: 'org_alpha',
				data: expect.objectContaining({ id: lead.id, score: 91, status: 'qualified' }),
			}),
		]);
		expect(nodeOutput(execution, 'Rejected')).toEqual([]);
	});

	it('a forged delivery reaches only Rejected, with the reason and without the secret', async () => {
		const before = (await listExecutions(api, WORKFLOW)).length;
		const result = await deliverForged(sandbox, subscriptionId);
		// The Webhook node answers before anything is checked; what matters is what comes out.
		expect(result.status).toBe(200);

		const execution = await nextExecution(before);
		expect(nodeOutput(execution, 'Verified')).toEqual([]);
		const rejected = nodeOutput(execution, 'Rejected').map((item) => item.json);
		expect(rejected).toEqual([expect.objectContaining({ reason: 'invalid_signature' })]);
		const secret = sandbox.control.webhooks()[0].secret;
		expect(JSON.stringify(execution.data)).not.toContain(secret);
	});

	it('a retried delivery (same bytes, same signature) is rejected as a duplicate', async () => {
		const first = firstQualifiedDelivery(sandbox);
		const before = (await listExecutions(api, WORKFLOW)).length;
		await expectRejectedAsDuplicate(first, before);
	});

	it('after n8n restarts, a retry of an earlier delivery is still a duplicate (n8n’s de-duplication store)', async () => {
		const first = firstQualifiedDelivery(sandbox);
		await n8n.stop();
		await startAndSignIn();
		const before = (await listExecutions(api, WORKFLOW)).length;

		await expectRejectedAsDuplicate(first, before);

		// A new event still goes through after the restart.
		const created = sandbox.control.createChannelLead({ name: 'Iara Lopes', channel: 'web_form' });
		await sandbox.control.whenDeliveriesSettled();
		const next = await nextExecution(before + 1);
		expect(nodeOutput(next, 'Verified').map((item) => item.json.data.id)).toEqual([created.id]);
	});
});
