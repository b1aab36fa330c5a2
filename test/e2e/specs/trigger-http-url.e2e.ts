import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { waitForTriggerStatus } from '../../../harness/real-n8n/executions';
import {
	N8nPublicApi,
	N8nSession,
	type N8nServer,
	startN8nWithApi,
} from '../../../harness/real-n8n/n8n-server';
import { e2eWorkflowsDir } from '../../../harness/real-n8n/paths';
import { importWorkflows, prepareUserFolder } from '../../../harness/real-n8n/setup';

// n8n on plain HTTP hands the trigger an http:// webhook URL, which the service refuses to
// deliver to. Activation must fail with the node's own explanation, where n8n shows it.

const TRIGGER_WORKFLOW = 'LcE2eTrigger0001';

let sandbox: RunningSandbox;
let userFolder: string;
let n8n: N8nServer;
let session: N8nSession;
let api: N8nPublicApi;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, leads: 20, seed: 7 });
	userFolder = await prepareUserFolder('http-url', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	await importWorkflows(userFolder, [join(e2eWorkflowsDir, 'trigger-lead-events.json')]);
	({ n8n, session, api } = await startN8nWithApi({ userFolder }));
}, 240_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

describe('Lead Conversations Trigger when n8n’s webhook URL is http://', () => {
	it('activation fails with the node’s readable reason and subscribes nothing', async () => {
		expect(n8n.webhookUrl.startsWith('http://')).toBe(true);

		await api.request('POST', `/workflows/${TRIGGER_WORKFLOW}/activate`);

		// n8n takes about 16 s to settle on a failed activation here.
		const [status] = await waitForTriggerStatus(userFolder, TRIGGER_WORKFLOW, 60_000);
		expect(status.status).toBe('failed');
		expect(status.errorMessage).toContain('The service only delivers events to https:// addresses');
		expect(status.errorMessage).toContain(`${n8n.webhookUrl}webhook/`);

		// What the editor reads to show the failed publication next to the workflow.
		const shown = await session.request('GET', `/workflows/${TRIGGER_WORKFLOW}/publication-status`);
		expect(shown.status).toBe(200);
		expect(shown.json.data).toMatchObject({
			status: 'failed',
			triggers: [{ status: 'failed', errorMessage: status.errorMessage }],
		});

		expect(sandbox.control.webhooks()).toEqual([]);
		expect(sandbox.control.requests().filter((r) => r.path === '/v1/webhooks')).toEqual([]);
	});
});
