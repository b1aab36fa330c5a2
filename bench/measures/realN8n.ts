// The measures that run in the real n8n of the end-to-end suite (Node 24 + n8n), with the packed
// package installed as a community package:
//   2b/3b  Return All of 20,000 leads: our node and the HTTP Request node, in n8n itself;
//   6b     deliveries per second: Webhook → Verify, the trigger, Webhook → Crypto → IF, Webhook alone.
// When that install is missing, both are reported as pending instead of installing 2 GiB of n8n.
// Runs in the bench's main process: it starts n8n, and the replay server n8n reads from.

import { n8nVersions } from '../n8n/install';
import { measureReturnAllInN8n, type ReturnAllInN8nResult } from '../n8n/returnAll';
import { prepareBenchN8n, receiversOf } from '../n8n/setup';
import {
	measureWebhookThroughput,
	type ThroughputRound,
	type WebhookThroughputArgs,
} from '../n8n/webhookThroughput';
import { WORKFLOW_IDS } from '../n8n/workflows';

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
	const bench = await prepareBenchN8n(args.returnAll.leads, log);
	try {
		let returnAll: ReturnAllInN8nResult | undefined;
		const throughput: RealN8nResult['throughput'] = [];
		for (const [index, configuration] of N8N_CONFIGURATIONS.entries()) {
			log(`real n8n: starting n8n (${configuration.label})`);
			const n8n = await bench.start(configuration.env);
			try {
				const pid = n8n.process.pid as number;
				if (index === 0) {
					const webhook = (path: string) => `${n8n.url}/webhook/${path}`;
					returnAll = await measureReturnAllInN8n({
						pid,
						urls: {
							empty: webhook(bench.paths.emptyPath),
							node: webhook(bench.paths.nodePath),
							http: webhook(bench.paths.httpPath),
						},
						replay: bench.replay,
						replayTarget: bench.replay.target,
						leads: bench.leads,
						pages: bench.pages,
						reps: args.returnAll.reps,
						log,
					});
				}
				throughput.push({
					label: configuration.label,
					rounds: await measureWebhookThroughput({
						pid,
						userFolder: bench.userFolder,
						receivers: receiversOf(n8n, bench),
						workflowIds: WORKFLOW_IDS,
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
			triggerVersion: bench.triggerVersion,
			webhookArgs: args.webhooks,
			returnAll: returnAll as ReturnAllInN8nResult,
			throughput,
		};
	} finally {
		await bench.close();
	}
}
