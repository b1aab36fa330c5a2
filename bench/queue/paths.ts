// The two delivery paths measured through the queue-mode cluster, each ending in the cluster's
// "Record run" node so the sink counts a run when a worker has finished it:
//   the Lead Conversations Trigger (automatic subscription to the sandbox) → Record run;
//   n8n's Webhook node (Raw Body) → Lead Conversations, Event: Verify → Record run.

import { LeadConversations } from '../../nodes/LeadConversations/LeadConversations.node';
import { LeadConversationsTrigger } from '../../nodes/LeadConversationsTrigger/LeadConversationsTrigger.node';
import type { QueueCluster } from '../../harness/queue/cluster';
import type { Receiver } from '../n8n/deliveries';
import { fillPostgresStore } from '../n8n/dedupStore';
import {
	EVENT_RECORD,
	recordRunNode,
	triggerWebhookPath,
	triggerWorkflow,
	type BuiltWorkflow,
} from '../../harness/queue/workflows';
import {
	SIGNING_SECRET_CREDENTIAL_TYPE,
	verifyWorkflow,
} from '../../harness/real-n8n/verifyWorkflows';

/** A path through the cluster: where its deliveries go, their secret, the kind its runs report. */
export interface QueuePath extends Receiver {
	name: string;
	kind: string;
}

const TRIGGER_ID = 'LcQueueBenchTrig1';
const TRIGGER_WEBHOOK_ID = '6c1d0e2f-3a4b-4c5d-9e6f-7a8b9c0d1e31';
const VERIFY_PATH = 'lc-queue-bench-verify';

/** The newest version of a node, as n8n's editor gives a freshly added one. */
function newest(version: number | number[]): number {
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** The trigger workflow, imported before the cluster starts; at the trigger's newest version. */
export function benchTriggerWorkflow(sinkUrl: string): BuiltWorkflow {
	const workflow = triggerWorkflow({
		id: TRIGGER_ID,
		webhookId: TRIGGER_WEBHOOK_ID,
		sinkUrl,
		events: ['lead.qualified'],
		kind: 'benchTrigger',
	});
	// The shared workflow pins an older version, at which n8n evaluates one more expression per call.
	workflow.nodes[0].typeVersion = newest(new LeadConversationsTrigger().description.version);
	return workflow;
}

export async function activateTriggerPath(
	cluster: QueueCluster,
	signingSecret: () => string,
): Promise<QueuePath> {
	await cluster.activate(TRIGGER_ID);
	return {
		secret: signingSecret(),
		name: 'Lead Conversations Trigger → Record run',
		kind: 'benchTrigger',
		url: `${cluster.balancer.url}${triggerWebhookPath(TRIGGER_WEBHOOK_ID)}`,
	};
}

async function created(cluster: QueueCluster, what: string, body: unknown): Promise<any> {
	const res = await cluster.api.request('POST', `/${what}`, body);
	if (res.status !== 200) throw new Error(`POST /${what}: ${res.status} ${res.text}`);
	return res.json;
}

/**
 * Sets the Verify path up as a user would in the editor of main: a Signing Secret credential
 * (the subscription's secret), then the workflow, both through main's public API, activated.
 */
export async function activateVerifyPath(
	cluster: QueueCluster,
	options: { signingSecret: string; sinkUrl: string },
): Promise<QueuePath> {
	const credential = await created(cluster, 'credentials', {
		name: 'Lead Conversations signing secret',
		type: SIGNING_SECRET_CREDENTIAL_TYPE,
		data: { signingSecret: options.signingSecret },
	});
	const built = verifyWorkflow({
		id: 'unused',
		path: VERIFY_PATH,
		secret: { id: String(credential.id), name: String(credential.name) },
		actionVersion: newest(new LeadConversations().description.version),
	});
	const record = recordRunNode('Record run', options.sinkUrl, EVENT_RECORD('benchVerify', ''));
	// Verified deliveries go straight to Record run, as the trigger's go; rejected ones stop.
	const nodes = [...built.nodes.filter((node) => node.name !== 'Verified'), record];
	const connections = {
		...built.connections,
		Verify: {
			main: [[{ node: record.name, type: 'main', index: 0 }], built.connections.Verify.main[1]],
		},
	};
	const workflow = await created(cluster, 'workflows', {
		name: 'Queue bench: Webhook → Verify',
		nodes,
		connections,
		settings: built.settings,
	});
	const verifyNode = (workflow.nodes as Array<{ id: string; name: string }>).find(
		(node) => node.name === 'Verify',
	);
	// Its duplicate memory at the steady state of a workflow in production (see dedupStore.ts).
	await fillPostgresStore(cluster.postgres, String(workflow.id), verifyNode!.id);
	await cluster.activate(String(workflow.id));
	return {
		secret: options.signingSecret,
		name: 'Webhook (Raw Body) → Event: Verify → Record run',
		kind: 'benchVerify',
		url: `${cluster.balancer.url}webhook/${VERIFY_PATH}`,
	};
}
