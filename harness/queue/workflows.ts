import { randomUUID } from 'crypto';

import { actionNodeType, triggerNodeType } from '../real-n8n/paths';
import { CREDENTIAL_ID, CREDENTIAL_NAME } from '../real-n8n/setup';

// Workflows the queue-mode suite and bench import: each ends in a "Record run" node (n8n's HTTP
// Request node, run once per execution) that tells the run sink what the run saw, so runs can
// be counted per event as the workers finish them.

const CREDENTIALS = { leadConversationsApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };
export const TRIGGER_NODE = 'Lead Conversations Trigger';

export interface BuiltWorkflow {
	id: string;
	name: string;
	nodes: any[];
	connections: Record<string, any>;
	settings: Record<string, unknown>;
	pinData: Record<string, unknown>;
}

export function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: object,
	extra: object = {},
) {
	return { id: randomUUID(), name, type, typeVersion, position: [0, 0], parameters, ...extra };
}

/** POSTs `expression` (evaluated once per run over all input items) to the sink. */
export function recordRunNode(name: string, sinkUrl: string, expression: string) {
	return node(
		name,
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'POST',
			url: sinkUrl,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify(${expression}) }}`,
			options: {},
		},
		{ executeOnce: true },
	);
}

/** n8n's own Webhook node (answers once the run is started), for paths started over HTTP. */
export function webhookNode(name: string, path: string) {
	return node(
		name,
		'n8n-nodes-base.webhook',
		2,
		{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
		{ webhookId: path },
	);
}

export function link(connections: Record<string, any>, from: string, to: string): void {
	connections[from] = { main: [[{ node: to, type: 'main', index: 0 }]] };
}

/**
 * What a run of a delivered event reports: the event's identity, the delivery key the trigger
 * gave it (absent on other paths) and the execution that ran it.
 */
export const EVENT_RECORD = (kind: string, workflowId: string) =>
	`{ kind: '${kind}', workflow: '${workflowId}', event: $json.event, id: $json.data.id, timestamp: $json.timestamp, deliveryKey: $json.delivery_key, execution: $execution.id }`;

/** Lead Conversations Trigger (automatic subscription) → Record run. */
export function triggerWorkflow(options: {
	id: string;
	webhookId: string;
	sinkUrl: string;
	events?: string[];
	kind?: string;
}): BuiltWorkflow {
	const connections: Record<string, any> = {};
	const nodes = [
		node(
			TRIGGER_NODE,
			triggerNodeType,
			1.1,
			{ events: options.events ?? ['lead.created', 'lead.qualified'], options: {} },
			{ webhookId: options.webhookId, credentials: CREDENTIALS },
		),
		recordRunNode(
			'Record run',
			options.sinkUrl,
			EVENT_RECORD(options.kind ?? 'trigger', options.id),
		),
	];
	link(connections, TRIGGER_NODE, 'Record run');
	return {
		id: options.id,
		name: `Queue: trigger ${options.id}`,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * The trigger beside an "Only New Since Last Run" sync in one workflow, so both keep their
 * memory in the same static-data column: Webhook "Sync now" → Get Many leads (only new) →
 * Record run with the ids it returned.
 */
export function triggerWithOnlyNewWorkflow(options: {
	id: string;
	webhookId: string;
	syncPath: string;
	sinkUrl: string;
}): BuiltWorkflow {
	const base = triggerWorkflow({ ...options, kind: 'stressTrigger' });
	base.name = `Queue: trigger beside Only New ${options.id}`;
	base.nodes.push(
		webhookNode('Sync now', options.syncPath),
		node(
			'New leads',
			actionNodeType,
			1,
			{
				resource: 'lead',
				operation: 'getAll',
				returnAll: true,
				filters: {},
				options: { onlyNewSinceLastRun: true },
			},
			{ credentials: CREDENTIALS, alwaysOutputData: true },
		),
		recordRunNode(
			'Record sync',
			options.sinkUrl,
			`{ kind: 'onlyNew', execution: $execution.id, ids: $input.all().map(i => i.json.id).filter(Boolean) }`,
		),
	);
	link(base.connections, 'Sync now', 'New leads');
	link(base.connections, 'New leads', 'Record sync');
	return base;
}

/** Webhook → Get Many leads, Return All (optionally filtered) → Record run with every id. */
export function returnAllWorkflow(options: {
	id: string;
	path: string;
	sinkUrl: string;
	filters?: Record<string, unknown>;
}): BuiltWorkflow {
	const connections: Record<string, any> = {};
	const nodes = [
		webhookNode('Start', options.path),
		node(
			'All leads',
			actionNodeType,
			1,
			{
				resource: 'lead',
				operation: 'getAll',
				returnAll: true,
				filters: options.filters ?? {},
				options: {},
			},
			{ credentials: CREDENTIALS },
		),
		recordRunNode(
			'Record run',
			options.sinkUrl,
			`{ kind: 'returnAll', execution: $execution.id, ids: $input.all().map(i => i.json.id) }`,
		),
	];
	link(connections, 'Start', 'All leads');
	link(connections, 'All leads', 'Record run');
	return {
		id: options.id,
		name: `Queue: Return All ${options.id}`,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/** The URL path n8n serves a trigger's production webhook at (webhook processes, balancer). */
export function triggerWebhookPath(webhookId: string): string {
	return `webhook/${webhookId}/webhook`;
}
