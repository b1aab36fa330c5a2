// The measures that run in the real n8n of the end-to-end suite (Node 24 + n8n), with the packed
// package installed as a community package:
//   2b/3b  Return All of 20,000 leads: our node and the HTTP Request node, in n8n itself;
//   6b     deliveries per second: Webhook → Verify, the trigger, Webhook → Crypto → IF, Webhook alone.
// When that install is missing, both are reported as pending instead of installing 2 GiB of n8n.
// Runs in the bench's main process: it starts n8n, and the replay server n8n reads from.

import { randomBytes } from 'crypto';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { waitForTriggerStatus } from '../../harness/real-n8n/executions';
import { N8nPublicApi, N8nSession, startN8n } from '../../harness/real-n8n/n8n-server';
import { importWorkflows, writeWorkflowFiles } from '../../harness/real-n8n/setup';
import { startTestSandbox } from '../../harness/engine';
import { recordPages, startReplayServer } from '../lib/replayServer';
import {
	n8nVersions,
	newestNodeVersion,
	packPrivately,
	prepareN8nUserFolder,
} from '../n8n/install';
import { measureReturnAllInN8n, type ReturnAllInN8nResult } from '../n8n/returnAll';
import {
	measureWebhookThroughput,
	type ThroughputRound,
	type WebhookThroughputArgs,
} from '../n8n/webhookThroughput';
import { benchWorkflows, CREDENTIALS, newBenchPaths, WORKFLOW_IDS } from '../n8n/workflows';

export interface RealN8nArgs {
	webhooks: WebhookThroughputArgs;
	returnAll: { leads: number; reps: number };
}

/** One n8n configuration the webhook bursts run under. */
export interface N8nConfiguration {
	label: string;
	env: Record<string, string>;
}

export const N8N_CONFIGURATIONS: N8nConfiguration[] = [
	{ label: 'n8n defaults', env: {} },
	{
		// n8n 2.41 lets only its own Webhook node skip the expression isolate of the webhook phase
		// (live-webhooks.js, webhookPhaseNeedsIsolate); with this every trigger pays it, as ours does.
		label: 'equal terms: N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP=false',
		env: { N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP: 'false' },
	},
];

export interface RealN8nResult {
	n8nVersion: string;
	nodeVersion: string;
	triggerVersion: number;
	webhookArgs: WebhookThroughputArgs;
	/** Return All, measured under n8n's defaults. */
	returnAll: ReturnAllInN8nResult;
	throughput: Array<{ label: string; rounds: ThroughputRound[] }>;
}

export async function realN8n(
	args: RealN8nArgs,
	log: (line: string) => void,
): Promise<RealN8nResult> {
	const workDir = mkdtempSync(join(tmpdir(), 'lc-bench-n8n-'));
	// The pages n8n reads: recorded once from the sandbox, answered from memory in this process.
	const sandbox = await startTestSandbox({ leads: args.returnAll.leads, rateLimit: 1e9 });
	const recorded = await recordPages({ baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full });
	const apiKey = sandbox.keys.full;
	await sandbox.close();
	const replay = await startReplayServer(recorded, apiKey);
	try {
		log('real n8n: building and packing the package');
		const tarball = process.env.LC_E2E_TARBALL ?? (await packPrivately(workDir));
		const userFolder = mkdtempSync(join(workDir, 'user-'));
		const signingSecret = randomBytes(32).toString('hex');
		await prepareN8nUserFolder(userFolder, tarball, [
			{
				...CREDENTIALS.ours,
				type: 'leadConversationsApi',
				data: { apiKey, baseUrl: replay.target.baseUrl },
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
		await importWorkflows(
			userFolder,
			writeWorkflowFiles(
				userFolder,
				benchWorkflows({
					paths,
					signingSecret,
					triggerVersion,
					actionVersion,
					replay: replay.target,
				}),
			),
		);

		let returnAll: ReturnAllInN8nResult | undefined;
		const throughput: RealN8nResult['throughput'] = [];
		for (const [index, configuration] of N8N_CONFIGURATIONS.entries()) {
			log(`real n8n: starting n8n (${configuration.label})`);
			// BENCH_N8N_NODE_OPTIONS (e.g. --cpu-prof --cpu-prof-dir=/tmp/p) is for looking into n8n.
			const nodeOptions = process.env.BENCH_N8N_NODE_OPTIONS;
			const n8n = await startN8n({
				userFolder,
				// A shared, busy machine can take minutes to start n8n.
				readyTimeoutMs: 300_000,
				env: { ...configuration.env, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
			});
			try {
				if (index === 0) {
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
				const pid = n8n.process.pid as number;
				const webhook = (path: string) => `${n8n.url}/webhook/${path}`;
				if (index === 0) {
					returnAll = await measureReturnAllInN8n({
						pid,
						urls: {
							empty: webhook(paths.emptyPath),
							node: webhook(paths.nodePath),
							http: webhook(paths.httpPath),
						},
						replay,
						replayTarget: replay.target,
						leads: recorded.leads,
						pages: recorded.pages.size,
						reps: args.returnAll.reps,
						log,
					});
				}
				throughput.push({
					label: configuration.label,
					rounds: await measureWebhookThroughput({
						pid,
						userFolder,
						urls: {
							verify: webhook(paths.verifyPath),
							trigger: webhook(`${paths.triggerWebhookId}/webhook`),
							chain: webhook(paths.chainPath),
							webhook: webhook(paths.webhookPath),
						},
						workflowIds: WORKFLOW_IDS,
						signingSecret,
						args: args.webhooks,
						log,
					}),
				});
			} finally {
				await n8n.stop();
			}
		}
		const versions = n8nVersions();
		return {
			n8nVersion: versions.n8n,
			nodeVersion: versions.node,
			triggerVersion,
			webhookArgs: args.webhooks,
			returnAll: returnAll as ReturnAllInN8nResult,
			throughput,
		};
	} finally {
		await replay.close();
		rmSync(workDir, { recursive: true, force: true });
	}
}
