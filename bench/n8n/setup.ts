// One real n8n (one process, sqlite) set up for the bench: the package installed as a community
// package, the credentials a user would have made, the bench workflows imported and, at the first
// start, activated. The measures start and stop it as they need (fresh processes for memory).

import { randomBytes } from 'crypto';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { startTestSandbox, type RunningSandbox } from '../../harness/engine';
import { freePort } from '../../harness/support/ports';
import { waitForTriggerStatus } from '../../harness/real-n8n/executions';
import {
	N8nPublicApi,
	N8nSession,
	startN8n,
	type N8nServer,
} from '../../harness/real-n8n/n8n-server';
import { importWorkflows, writeWorkflowFiles } from '../../harness/real-n8n/setup';
import { recordPages, startReplayServer, type ReplayServer } from '../lib/replayServer';
import { newestNodeVersion, packageTarball, prepareN8nUserFolder } from './install';
import { fillSqliteStore } from './dedupStore';
import type { Receiver } from './deliveries';
import type { DeliveryPath } from './webhookThroughput';
import {
	benchWorkflows,
	CREDENTIALS,
	newBenchPaths,
	WORKFLOW_IDS,
	type BenchPaths,
} from './workflows';

export interface BenchN8n {
	userFolder: string;
	paths: BenchPaths;
	/** The secret each delivery path checks; the trigger's is known once it has subscribed. */
	secrets: Record<DeliveryPath, string>;
	triggerVersion: number;
	/** The recorded `GET /leads` pages the Return All workflows read. */
	replay: ReplayServer;
	leads: number;
	pages: number;
	/** Starts n8n on this user folder; the first start also activates the workflows. */
	start(env?: Record<string, string>): Promise<N8nServer>;
	close(): Promise<void>;
}

export async function prepareBenchN8n(
	leads: number,
	log: (line: string) => void,
): Promise<BenchN8n> {
	const workDir = mkdtempSync(join(tmpdir(), 'lc-bench-n8n-'));
	// The sandbox takes the trigger's subscription; the pages n8n reads are recorded once from it
	// and answered from memory in this process.
	const sandbox = await startTestSandbox({ leads, rateLimit: 1e9 });
	const recorded = await recordPages({ baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full });
	const apiKey = sandbox.keys.full;
	const replay = await startReplayServer(recorded, apiKey);
	const close = async () => {
		await replay.close();
		await sandbox.close();
		rmSync(workDir, { recursive: true, force: true });
	};
	try {
		log('real n8n: building and packing the package');
		const tarball = await packageTarball();
		const userFolder = mkdtempSync(join(workDir, 'user-'));
		const signingSecret = randomBytes(32).toString('hex');
		await prepareN8nUserFolder(userFolder, tarball, [
			{
				...CREDENTIALS.ours,
				type: 'leadConversationsApi',
				data: { apiKey, baseUrl: replay.target.baseUrl },
			},
			{
				...CREDENTIALS.service,
				type: 'leadConversationsApi',
				data: { apiKey, baseUrl: sandbox.baseUrl },
			},
			{
				...CREDENTIALS.headerAuth,
				type: 'httpHeaderAuth',
				data: { name: 'X-API-Key', value: apiKey },
			},
			{
				...CREDENTIALS.signingSecret,
				type: 'leadConversationsSigningSecretApi',
				data: { signingSecret },
			},
			{ ...CREDENTIALS.crypto, type: 'crypto', data: { hmacSecret: signingSecret } },
		]);
		const paths = newBenchPaths();
		const triggerVersion = newestNodeVersion(
			userFolder,
			'LeadConversationsTrigger/LeadConversationsTrigger.node.js',
		);
		const actionVersion = newestNodeVersion(
			userFolder,
			'LeadConversations/LeadConversations.node.js',
		);
		const workflows = benchWorkflows({
			paths,
			triggerVersion,
			actionVersion,
			replay: replay.target,
		});
		await importWorkflows(userFolder, writeWorkflowFiles(userFolder, workflows));
		const verify = workflows.find((workflow) => workflow.id === WORKFLOW_IDS.verify);
		const verifyNode = verify?.nodes.find((node) => (node as { name: string }).name === 'Verify');
		await fillSqliteStore(userFolder, WORKFLOW_IDS.verify, (verifyNode as { id: string }).id);
		let activated = false;
		const secrets: Record<DeliveryPath, string> = {
			verify: signingSecret,
			trigger: '',
			triggerManual: signingSecret,
			chain: signingSecret,
			webhook: signingSecret,
		};
		return {
			userFolder,
			paths,
			secrets,
			triggerVersion,
			replay,
			leads: recorded.leads,
			pages: recorded.pages.size,
			async start(env = {}) {
				// BENCH_N8N_NODE_OPTIONS (e.g. --cpu-prof --cpu-prof-dir=/tmp/p) is for looking into n8n.
				const nodeOptions = process.env.BENCH_N8N_NODE_OPTIONS;
				const port = await freePort();
				const n8n = await startN8n({
					userFolder,
					port,
					// The service takes only https:// subscribers; nothing is delivered to this address.
					webhookUrl: `https://localhost:${port}/`,
					// A shared, busy machine can take minutes to start n8n.
					readyTimeoutMs: 300_000,
					env: { ...env, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
				});
				if (!activated) {
					await activateAll(n8n, userFolder).catch(async (error: Error) => {
						await n8n.stop();
						throw error;
					});
					activated = true;
					secrets.trigger = subscriptionSecret(sandbox, paths.triggerWebhookId);
				}
				return n8n;
			},
			close,
		};
	} catch (error) {
		await close();
		throw error;
	}
}

/** Activates every bench workflow through the public API and waits for n8n's own record. */
async function activateAll(n8n: N8nServer, userFolder: string): Promise<void> {
	const session = await N8nSession.signIn(n8n);
	const api = new N8nPublicApi(n8n, await session.createApiKey('bench'));
	for (const id of Object.values(WORKFLOW_IDS)) {
		const res = await api.request('POST', `/workflows/${id}/activate`);
		if (res.status !== 200) throw new Error(`Activating ${id}: ${res.status} ${res.text}`);
	}
	for (const id of Object.values(WORKFLOW_IDS)) {
		const failed = (await waitForTriggerStatus(userFolder, id)).find(
			(status) => status.status !== 'activated',
		);
		if (failed) throw new Error(`Activating ${id} failed: ${failed.errorMessage}`);
	}
}

/** The secret the service gave the trigger's subscription, which signs its deliveries. */
function subscriptionSecret(sandbox: RunningSandbox, webhookId: string): string {
	const subscription = sandbox.control
		.webhooks()
		.find((webhook) => webhook.url.includes(webhookId));
	if (!subscription) throw new Error('The trigger did not subscribe to the sandbox');
	return subscription.secret;
}

/** Where each delivery path of 6b listens on a running n8n, and the secret it checks. */
export function receiversOf(n8n: N8nServer, bench: BenchN8n): Record<DeliveryPath, Receiver> {
	const { paths, secrets } = bench;
	const at = (path: DeliveryPath, urlPath: string) => ({
		url: `${n8n.url}/webhook/${urlPath}`,
		secret: secrets[path],
	});
	return {
		verify: at('verify', paths.verifyPath),
		trigger: at('trigger', `${paths.triggerWebhookId}/webhook`),
		triggerManual: at('triggerManual', `${paths.triggerManualWebhookId}/webhook`),
		chain: at('chain', paths.chainPath),
		webhook: at('webhook', paths.webhookPath),
	};
}
