import { createHmac } from 'crypto';
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { waitForTriggerStatus } from '../../../harness/real-n8n/executions';
import { n8nCli } from '../../../harness/real-n8n/n8n-cli';
import {
	N8nPublicApi,
	N8nSession,
	startN8n,
	type N8nServer,
} from '../../../harness/real-n8n/n8n-server';
import { waitFor } from '../../../harness/real-n8n/processes';
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	importWorkflows,
	prepareUserFolder,
	writeWorkflowFiles,
} from '../../../harness/real-n8n/setup';
import { queryN8nDatabase } from '../../../harness/real-n8n/sqlite';

// The trigger with its signing secret in a credential, in a real n8n 2.41.1 (manual
// subscription, deliveries posted straight to n8n's webhook URL):
// - an exported workflow carries no secret, and the exported credential is encrypted;
// - the sender gets its 2xx only once n8n has created the execution;
// - n8n killed in the middle of a stream loses no event the sender was told was delivered.

const WORKFLOW_ID = 'LcE2eSecretCred01';
const LEGACY_WORKFLOW_ID = 'LcE2eSecretParam1';
const WEBHOOK_ID = '6a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c01';
const SECRET_CREDENTIAL_ID = 'LcSigningSecret01';
const SIGNING_SECRET = 'whsec_e2e_credential_9f8e7d6c5b4a';
const LEGACY_SECRET = 'whsec_e2e_parameter_1a2b3c4d5e6f';

let userFolder: string;
let n8n: N8nServer;
let webhookUrl: string;

function triggerWorkflow(
	id: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	credentials: Record<string, unknown>,
) {
	return {
		id,
		name: `E2E: ${id}`,
		nodes: [
			{
				id: `${id}-node`,
				name: 'Lead Conversations Trigger',
				type: 'n8n-nodes-lead-conversations.leadConversationsTrigger',
				typeVersion,
				position: [0, 0],
				webhookId: id === WORKFLOW_ID ? WEBHOOK_ID : '6a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c02',
				parameters: {
					events: ['lead.qualified'],
					subscription: 'manual',
					options: {},
					...parameters,
				},
				credentials: {
					leadConversationsApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME },
					...credentials,
				},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

function signedEvent(leadId: string): { body: string; signature: string } {
	const body = JSON.stringify({
		event: 'lead.qualified',
		timestamp: new Date().toISOString(),
		organization_id: 'org_alpha',
		data: { id: leadId, name: 'E2E Lead', score: 90, status: 'qualified' },
	});
	return { body, signature: createHmac('sha256', SIGNING_SECRET).update(body).digest('hex') };
}

async function post(
	body: string,
	signature: string,
): Promise<{ status: number; answeredAt: number }> {
	const response = await fetch(webhookUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'X-Service-Signature': signature },
		body,
	});
	await response.arrayBuffer();
	return { status: response.status, answeredAt: Date.now() };
}

interface ExecutionRow {
	id: string;
	createdAt: string;
	data: string;
}

async function executions(): Promise<ExecutionRow[]> {
	return await queryN8nDatabase<ExecutionRow>(
		userFolder,
		'SELECT e.id AS id, e.createdAt AS createdAt, d.data AS data FROM execution_entity e JOIN execution_data d ON d.executionId = e.id WHERE e.workflowId = ?',
		[WORKFLOW_ID],
	);
}

/** The execution that carries the given lead id, if any (the run's data holds the trigger's item). */
function executionOf(rows: ExecutionRow[], leadId: string): ExecutionRow | undefined {
	return rows.find((row) => row.data.includes(`"${leadId}"`));
}

/** sqlite keeps UTC as "YYYY-MM-DD HH:MM:SS.SSS". */
const epochOf = (createdAt: string) => Date.parse(`${createdAt.replace(' ', 'T')}Z`);

beforeAll(async () => {
	userFolder = await prepareUserFolder('trigger-delivery', {
		baseUrl: 'https://127.0.0.1:9/v1',
		apiKey: 'lc_e2e_unused_key',
	});
	const credentialFile = join(userFolder, 'signing-secret-credential.json');
	writeFileSync(
		credentialFile,
		JSON.stringify([
			{
				id: SECRET_CREDENTIAL_ID,
				name: 'Lead Conversations signing secret',
				type: 'leadConversationsSigningSecretApi',
				data: { signingSecret: SIGNING_SECRET },
			},
		]),
	);
	await n8nCli(userFolder, ['import:credentials', `--input=${credentialFile}`]);
	await importWorkflows(
		userFolder,
		writeWorkflowFiles(userFolder, [
			triggerWorkflow(
				WORKFLOW_ID,
				2,
				{},
				{
					leadConversationsSigningSecretApi: {
						id: SECRET_CREDENTIAL_ID,
						name: 'Lead Conversations signing secret',
					},
				},
			),
			triggerWorkflow(LEGACY_WORKFLOW_ID, 1.1, { signingSecret: LEGACY_SECRET }, {}),
		]),
	);
}, 240_000);

afterAll(async () => {
	await n8n?.stop();
});

describe('the signing secret in a credential, in n8n 2.41.1', () => {
	it('an exported workflow holds no secret, and the exported credential is encrypted', async () => {
		const exported = join(userFolder, 'exported-workflow.json');
		await n8nCli(userFolder, ['export:workflow', `--id=${WORKFLOW_ID}`, `--output=${exported}`]);
		const workflowText = readFileSync(exported, 'utf8');
		expect(workflowText).toContain(SECRET_CREDENTIAL_ID);
		expect(workflowText).not.toContain(SIGNING_SECRET);

		// What the parameter did: the same export carries the secret in plain text.
		const legacy = join(userFolder, 'exported-legacy-workflow.json');
		await n8nCli(userFolder, [
			'export:workflow',
			`--id=${LEGACY_WORKFLOW_ID}`,
			`--output=${legacy}`,
		]);
		expect(readFileSync(legacy, 'utf8')).toContain(LEGACY_SECRET);

		const credentials = join(userFolder, 'exported-credentials.json');
		await n8nCli(userFolder, ['export:credentials', '--all', `--output=${credentials}`]);
		const credentialText = readFileSync(credentials, 'utf8');
		const secretCredential = (
			JSON.parse(credentialText) as Array<{ id: string; data: unknown }>
		).find((credential) => credential.id === SECRET_CREDENTIAL_ID);
		expect(typeof secretCredential?.data).toBe('string');
		expect(credentialText).not.toContain(SIGNING_SECRET);
	});

	it('activates, verifies with the credential and refuses other signatures', async () => {
		n8n = await startN8n({ userFolder });
		webhookUrl = `${n8n.webhookUrl}webhook/${WEBHOOK_ID}/webhook`;
		const session = await N8nSession.signIn(n8n);
		const api = new N8nPublicApi(n8n, await session.createApiKey());
		expect((await api.request('POST', `/workflows/${WORKFLOW_ID}/activate`)).status).toBe(200);
		const [status] = await waitForTriggerStatus(userFolder, WORKFLOW_ID);
		expect(status).toMatchObject({ status: 'activated', errorMessage: null });

		const good = signedEvent('lead_e2e_first');
		expect((await post(good.body, good.signature)).status).toBe(200);
		const forged = signedEvent('lead_e2e_forged');
		const legacySigned = createHmac('sha256', LEGACY_SECRET).update(forged.body).digest('hex');
		expect((await post(forged.body, legacySigned)).status).toBe(401);
		await waitFor('the first execution', async () =>
			executionOf(await executions(), 'lead_e2e_first') ? true : undefined,
		);
		expect(executionOf(await executions(), 'lead_e2e_forged')).toBeUndefined();
	});

	it('the sender gets its 200 only after n8n has created the execution', async () => {
		const answers: Array<{ leadId: string; answeredAt: number }> = [];
		for (let index = 0; index < 30; index++) {
			const leadId = `lead_e2e_order_${index}`;
			const { body, signature } = signedEvent(leadId);
			const { status, answeredAt } = await post(body, signature);
			expect(status).toBe(200);
			answers.push({ leadId, answeredAt });
		}
		const rows = await executions();
		const margins = answers.map(({ leadId, answeredAt }) => {
			const row = executionOf(rows, leadId);
			expect(row).toBeDefined();
			return answeredAt - epochOf(row!.createdAt);
		});
		const sorted = [...margins].sort((a, b) => a - b);
		process.stdout.write(
			`[e2e] answer received after execution created, ms: min ${sorted[0]}, median ${sorted[Math.floor(sorted.length / 2)]}, max ${sorted[sorted.length - 1]}\n`,
		);
		expect(sorted[0]).toBeGreaterThanOrEqual(0);
	});

	it('n8n killed in the middle of 200 deliveries: every delivery answered 2xx has its execution', async () => {
		const total = 200;
		const inFlight = 8;
		const answered2xx: string[] = [];
		const failed: string[] = [];
		let next = 0;
		let killed = false;
		const sender = async () => {
			while (next < total) {
				const leadId = `lead_e2e_kill_${next++}`;
				const { body, signature } = signedEvent(leadId);
				try {
					const { status } = await post(body, signature);
					if (status >= 200 && status < 300) answered2xx.push(leadId);
					else failed.push(leadId);
				} catch {
					failed.push(leadId);
				}
				if (!killed && answered2xx.length >= 60) {
					killed = true;
					process.kill(-n8n.process.pid!, 'SIGKILL');
				}
			}
		};
		await Promise.all(Array.from({ length: inFlight }, sender));
		await waitFor('n8n to be gone', () =>
			n8n.process.exitCode !== null || n8n.process.signalCode !== null ? true : undefined,
		);

		const rows = await executions();
		const missing = answered2xx.filter((leadId) => executionOf(rows, leadId) === undefined);
		const runsForUnanswered = failed.filter((leadId) => executionOf(rows, leadId) !== undefined);
		process.stdout.write(
			`[e2e] SIGKILL after 60 answers: ${answered2xx.length} answered 2xx, ${failed.length} not answered, ${missing.length} answered without execution, ${runsForUnanswered.length} executions for unanswered deliveries (the service would retry those; the duplicate memory of a restarted n8n is empty)\n`,
		);
		expect(killed).toBe(true);
		expect(failed.length).toBeGreaterThan(0);
		expect(missing).toEqual([]);
	});
});
