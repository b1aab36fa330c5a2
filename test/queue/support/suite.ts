import { mkdirSync, readFileSync } from 'fs';
import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { QueueCluster } from '../../../harness/queue/cluster';
import { startRunSink, type RunSink } from '../../../harness/queue/sink';
import {
	pollWorkflow,
	triggerBesidePollWorkflow,
	verifyPathWorkflow,
} from '../../../harness/queue/pathWorkflows';
import {
	returnAllWorkflow,
	triggerWithOnlyNewWorkflow,
	triggerWorkflow,
} from '../../../harness/queue/workflows';
import { examplesDir } from '../../../harness/real-n8n/paths';
import { packedTarball } from '../../../harness/real-n8n/setup';
import { SIGNING_SECRET_CREDENTIAL_TYPE } from '../../../harness/real-n8n/verifyWorkflows';
import { credentialType } from '../../../harness/real-n8n/paths';
import { freePort } from '../../../harness/support/ports';
import { recordFigure } from './figures';

// The one cluster every spec module of the suite runs against (queue.queue.ts registers the
// modules in order): the sandbox, the run sink, n8n in queue mode and every workflow the points
// need, imported before main starts.

export const IDS = {
	main: 'LcQueueTrigger01',
	stress: 'LcQueueStress001',
	onlyNew: 'LcQueueOnlyNew01',
	returnAll: 'LcQueueReturnAll',
	verify: 'LcQueueVerify001',
	pollNew: 'LcQueuePollNew01',
	pollQualified: 'LcQueuePollQual1',
} as const;

export const WEBHOOK_IDS = {
	main: '3a0c1e52-7d44-4c1b-9f0e-5b2a9c7d1e01',
	stress: '3a0c1e52-7d44-4c1b-9f0e-5b2a9c7d1e02',
	onlyNew: '3a0c1e52-7d44-4c1b-9f0e-5b2a9c7d1e03',
} as const;

export const PATHS = {
	onlyNewSync: 'lc-queue-only-new-sync',
	returnAll: 'lc-queue-return-all',
	verify: 'lc-queue-verify',
	verifyExample: 'lead-events-verified',
} as const;

export const EXAMPLES = [
	'leads-to-spreadsheet.json',
	'qualified-lead-round-robin.json',
	'stalled-conversation-nudge.json',
	'leads-mirror-to-data-table.json',
	'verified-webhook-events.json',
];
/** The signing-secret credential the Verify example names. */
const EXAMPLE_SECRET = { id: 'LcSigningSecret01', name: 'Lead Conversations signing secret' };
const VERIFY_SECRET = { id: 'LcQueueSecret001', name: 'Queue suite signing secret' };
/** A service credential for the sandbox's second organization (Beta Autos), which the leads
 * mirror example reads: a small account, so that its fill takes seconds. */
export const BETA_CREDENTIAL = { id: 'LcQueueBetaCred1', name: 'Lead Conversations (Beta Autos)' };
export const SEEDED_LEADS = 1000;
/** Seeded leads are all created in 2025; the suite's events create leads now. */
const SEEDED_BEFORE = '2026-01-01T00:00:00.000Z';
/** Seconds between the suite's polls (n8n's Poll Times, several fixed seconds a minute). */
export const POLL_SECONDS = 10;

export interface Subscription {
	id: string;
	secret: string;
}

/** What every spec module reads once `beforeAll` has run. */
export const suite = {} as {
	sandbox: RunningSandbox;
	sink: RunSink;
	cluster: QueueCluster;
	/** Subscriptions made "in the service's dashboard" for the Webhook-node paths. */
	verifySubscription: Subscription;
	exampleSubscription: Subscription;
};

export function example(file: string): { id: string; nodes: any[] } {
	return JSON.parse(readFileSync(join(examplesDir, file), 'utf8'));
}

async function subscribe(url: string, events: string[]): Promise<Subscription> {
	const res = await fetch(`${suite.sandbox.baseUrl}/webhooks`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'X-API-Key': suite.sandbox.keys.full },
		body: JSON.stringify({ url, events }),
	});
	if (res.status !== 201) throw new Error(`POST /webhooks: ${res.status} ${await res.text()}`);
	return (await res.json()) as Subscription;
}

function workflows(sinkUrl: string) {
	return [
		triggerWorkflow({ id: IDS.main, webhookId: WEBHOOK_IDS.main, sinkUrl }),
		triggerBesidePollWorkflow({
			id: IDS.stress,
			webhookId: WEBHOOK_IDS.stress,
			sinkUrl,
			pollSeconds: POLL_SECONDS,
		}),
		triggerWithOnlyNewWorkflow({
			id: IDS.onlyNew,
			webhookId: WEBHOOK_IDS.onlyNew,
			syncPath: PATHS.onlyNewSync,
			sinkUrl,
		}),
		returnAllWorkflow({
			id: IDS.returnAll,
			path: PATHS.returnAll,
			sinkUrl,
			filters: { createdBefore: SEEDED_BEFORE },
		}),
		verifyPathWorkflow({ id: IDS.verify, path: PATHS.verify, sinkUrl, secret: VERIFY_SECRET }),
		pollWorkflow({
			id: IDS.pollNew,
			event: 'newLead',
			kind: 'pollNew',
			sinkUrl,
			pollSeconds: POLL_SECONDS,
		}),
		pollWorkflow({
			id: IDS.pollQualified,
			event: 'leadStatus',
			kind: 'pollQualified',
			sinkUrl,
			pollSeconds: POLL_SECONDS,
		}),
		...EXAMPLES.map(example),
	];
}

const signingSecret = (ref: { id: string; name: string }, subscription: Subscription) => ({
	...ref,
	type: SIGNING_SECRET_CREDENTIAL_TYPE,
	data: { signingSecret: subscription.secret },
});

/** Starts everything before the first spec module and stops it all, by PID, after the last. */
export function useQueueCluster(): void {
	beforeAll(async () => {
		suite.sandbox = await startSandbox({ port: 0, leads: SEEDED_LEADS, seed: 20261124 });
		suite.sink = await startRunSink();
		// The balancer's address is known before n8n starts, so that the Webhook-node paths can
		// be subscribed and their secrets stored in credentials, as a user does in the dashboard.
		const balancerPort = await freePort();
		const balancer = `https://localhost:${balancerPort}/webhook`;
		suite.verifySubscription = await subscribe(`${balancer}/${PATHS.verify}`, [
			'appointment.booked',
		]);
		suite.exampleSubscription = await subscribe(`${balancer}/${PATHS.verifyExample}`, [
			'lead.qualified',
		]);
		// The service's request log then starts empty: point 1 counts the trigger's own calls.
		suite.sandbox.control.clearRequests();
		const workDir = join(process.env.LC_E2E_WORK_DIR!, 'queue-cluster');
		mkdirSync(workDir, { recursive: true });
		suite.cluster = await QueueCluster.start({
			tarball: packedTarball(),
			workDir,
			balancerPort,
			service: { baseUrl: suite.sandbox.baseUrl, apiKey: suite.sandbox.keys.full },
			credentials: [
				signingSecret(VERIFY_SECRET, suite.verifySubscription),
				signingSecret(EXAMPLE_SECRET, suite.exampleSubscription),
				{
					...BETA_CREDENTIAL,
					type: credentialType,
					data: { apiKey: suite.sandbox.keys.otherOrganization, baseUrl: suite.sandbox.baseUrl },
				},
			],
			workflows: workflows(suite.sink.url),
			// Two jobs per worker: four concurrent Return-All runs spread over both workers.
			workerConcurrency: 2,
		});
		recordFigure({
			point: 'setup',
			test: 'cluster from nothing to ready',
			figure: `${suite.cluster.startupSeconds.toFixed(0)} s (Redis, Postgres, main, 2 workers, 2 webhook processes, balancer)`,
			target: 'runs',
		});
	}, 420_000);

	afterAll(async () => {
		await suite.cluster?.stop();
		await suite.sink?.close();
		await suite.sandbox?.close();
	}, 120_000);
}
