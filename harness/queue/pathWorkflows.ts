import { rawBodyWebhookNode, SIGNING_SECRET_CREDENTIAL_TYPE } from '../real-n8n/verifyWorkflows';
import { actionNodeType, packageName } from '../real-n8n/paths';
import { CREDENTIAL_ID, CREDENTIAL_NAME } from '../real-n8n/setup';
import {
	EVENT_RECORD,
	link,
	node,
	recordRunNode,
	triggerWorkflow,
	type BuiltWorkflow,
} from './workflows';

// The paths beside the webhook trigger that the queue-mode suite runs through the cluster: n8n's
// Webhook node with Event: Verify (de-duplication on the workers), and the polling trigger (polls
// on the leader main). Each ends in Record nodes that report to the run sink, as the trigger's
// workflows do.

export const POLL_TRIGGER_NODE = 'Lead Conversations Polling Trigger';
const pollTriggerNodeType = `${packageName}.leadConversationsPollTrigger`;
const SERVICE_CREDENTIALS = { leadConversationsApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };

function workflowOf(id: string, name: string, nodes: any[], connections: Record<string, any>) {
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' }, pinData: {} };
}

/**
 * Webhook (Raw Body, answered once the run is enqueued) → Event: Verify → Record verified (the
 * event) / Record rejected (the reason). `secret` is the signing-secret credential to use.
 */
export function verifyPathWorkflow(options: {
	id: string;
	path: string;
	sinkUrl: string;
	secret: { id: string; name: string };
}): BuiltWorkflow {
	const connections: Record<string, any> = {};
	const nodes = [
		rawBodyWebhookNode(options.path),
		node(
			'Verify',
			actionNodeType,
			1,
			{ resource: 'event', operation: 'verify' },
			{ credentials: { [SIGNING_SECRET_CREDENTIAL_TYPE]: options.secret } },
		),
		recordRunNode('Record verified', options.sinkUrl, EVENT_RECORD('verified', options.id)),
		recordRunNode(
			'Record rejected',
			options.sinkUrl,
			`{ kind: 'rejected', reason: $json.reason, event: $json.event, timestamp: $json.timestamp, execution: $execution.id }`,
		),
	];
	link(connections, 'Webhook', 'Verify');
	connections.Verify = {
		main: [
			[{ node: 'Record verified', type: 'main', index: 0 }],
			[{ node: 'Record rejected', type: 'main', index: 0 }],
		],
	};
	return workflowOf(options.id, `Queue: Webhook → Verify ${options.id}`, nodes, connections);
}

/**
 * n8n refuses a Poll Times entry that fires more than once a minute, but takes several entries
 * each at a fixed second: `seconds` apart polls keep the suite short.
 */
export function pollTimesEvery(seconds: number) {
	const item = [];
	for (let second = 0; second < 60; second += seconds) {
		item.push({ mode: 'custom', cronExpression: `${second} * * * * *` });
	}
	return { item };
}

function pollTriggerNode(event: 'newLead' | 'leadStatus', pollSeconds: number) {
	const parameters: Record<string, unknown> = { pollTimes: pollTimesEvery(pollSeconds), event };
	if (event === 'leadStatus') parameters.statuses = ['qualified'];
	return node(POLL_TRIGGER_NODE, pollTriggerNodeType, 1, parameters, {
		credentials: SERVICE_CREDENTIALS,
	});
}

/** What a poll's run reports: every lead it announced. */
const POLL_RECORD = (kind: string) =>
	`{ kind: '${kind}', execution: $execution.id, event: $json.event, ids: $input.all().map(i => i.json.id) }`;

/** Polling trigger (New Lead, or Lead Reached a Status: qualified) → Record run with the lead IDs. */
export function pollWorkflow(options: {
	id: string;
	event: 'newLead' | 'leadStatus';
	kind: string;
	sinkUrl: string;
	pollSeconds: number;
}): BuiltWorkflow {
	const connections: Record<string, any> = {};
	const nodes = [
		pollTriggerNode(options.event, options.pollSeconds),
		recordRunNode('Record poll', options.sinkUrl, POLL_RECORD(options.kind)),
	];
	link(connections, POLL_TRIGGER_NODE, 'Record poll');
	return workflowOf(options.id, `Queue: poll ${options.event} ${options.id}`, nodes, connections);
}

/**
 * The webhook trigger and the polling trigger (New Lead) in one workflow, so that both keep their
 * memory in the same static-data column: the subscription's id and secret (written by main on
 * activation) and the poll position (written by main after each poll that starts a run).
 */
export function triggerBesidePollWorkflow(options: {
	id: string;
	webhookId: string;
	sinkUrl: string;
	pollSeconds: number;
}): BuiltWorkflow {
	const base = triggerWorkflow({ ...options, events: ['lead.created'], kind: 'stressTrigger' });
	base.name = `Queue: trigger beside a polling trigger ${options.id}`;
	base.nodes.push(
		pollTriggerNode('newLead', options.pollSeconds),
		recordRunNode('Record poll', options.sinkUrl, POLL_RECORD('stressPoll')),
	);
	link(base.connections, POLL_TRIGGER_NODE, 'Record poll');
	return base;
}
