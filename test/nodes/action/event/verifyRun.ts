// Runs "Manual Trigger → Webhook Items → Verify (→ No Operation on each output)" in n8n's engine.
// "Webhook Items" hands on each delivery exactly as n8n's Webhook node does with Raw Body on:
// json { headers, params, query, body } and the request bytes as binary "data".

import { createHmac } from 'crypto';
import {
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { LeadConversationsSigningSecretApi } from '../../../../credentials/LeadConversationsSigningSecretApi.credentials';
import {
	ACTION_NODE_TYPE,
	MANUAL_TRIGGER_NODE_TYPE,
	NO_OP_NODE_TYPE,
	runWorkflow,
	type RunResult,
	testNodeDescription,
} from '../../../../harness/engine';

export const VERIFY = 'Verify';
export const SECRET = 'whsec_test_5f1c0e9a7b3d2c4e6f8a0b1c2d3e4f5a';
const WEBHOOK_ITEMS_TYPE = 'test.webhookItems';

export interface Delivery {
	body: Buffer;
	/** The X-Service-Signature header as sent; absent when undefined. */
	header?: string | string[];
}

export function sign(body: Buffer, secret = SECRET): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

export function eventBody(
	overrides: IDataObject = {},
	data: IDataObject = { id: 'lead_7h2k9m4p', name: 'Ana Souza', score: 87 },
): Buffer {
	return Buffer.from(
		JSON.stringify({
			event: 'lead.qualified',
			timestamp: new Date().toISOString(),
			organization_id: 'org_alpha',
			data,
			...overrides,
		}),
	);
}

export function signed(body: Buffer, secret = SECRET): Delivery {
	return { body, header: sign(body, secret) };
}

class WebhookItems implements INodeType {
	description = testNodeDescription(
		'Webhook Items',
		'webhookItems',
		"Items shaped like the Webhook node's output with Raw Body on",
	);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map(({ json }) => {
				const body = Buffer.from(json.body64 as string, 'base64');
				const headers: IDataObject = { 'content-type': 'application/json', host: 'n8n.test' };
				if (json.header !== undefined) headers['x-service-signature'] = json.header;
				let parsed: unknown = {};
				try {
					parsed = JSON.parse(body.toString('utf8'));
				} catch {}
				return {
					json: { headers, params: {}, query: {}, body: parsed as IDataObject },
					binary: { data: { data: json.body64 as string, mimeType: 'application/json' } },
				};
			}),
		];
	}
}

export interface VerifyRunOptions {
	parameters?: INodeParameters;
	staticData?: IDataObject;
	secret?: string;
	mode?: WorkflowExecuteMode;
	continueOnFail?: boolean;
}

export async function runVerify(
	deliveries: Delivery[],
	options: VerifyRunOptions = {},
): Promise<RunResult> {
	const parameters: INodeParameters = {
		resource: 'event',
		operation: 'verify',
		...options.parameters,
	};
	const twoOutputs = parameters.rejected !== 'error';
	return await runWorkflow(
		{
			nodes: [
				{ name: 'Manual Trigger', type: MANUAL_TRIGGER_NODE_TYPE, parameters: {} },
				{ name: 'Webhook', type: WEBHOOK_ITEMS_TYPE, parameters: {} },
				{
					name: VERIFY,
					type: ACTION_NODE_TYPE,
					parameters,
					credentials: {
						leadConversationsSigningSecretApi: { id: 'secret-1', name: 'Signing secret' },
					},
					...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
				},
				{ name: 'Verified Sink', type: NO_OP_NODE_TYPE, parameters: {} },
				{ name: 'Rejected Sink', type: NO_OP_NODE_TYPE, parameters: {} },
			],
			connections: {
				'Manual Trigger': { main: [[{ node: 'Webhook', type: 'main', index: 0 }]] },
				Webhook: { main: [[{ node: VERIFY, type: 'main', index: 0 }]] },
				[VERIFY]: {
					main: [
						[{ node: 'Verified Sink', type: 'main', index: 0 }],
						...(twoOutputs ? [[{ node: 'Rejected Sink', type: 'main' as const, index: 0 }]] : []),
					],
				},
			},
			staticData: options.staticData,
		},
		{ apiKey: 'unused', baseUrl: 'https://unused.example/v1' },
		{
			mode: options.mode ?? 'webhook',
			inputItems: deliveries.map(({ body, header }) => ({
				body64: body.toString('base64'),
				...(header === undefined ? {} : { header }),
			})),
			nodeTypes: { [WEBHOOK_ITEMS_TYPE]: new WebhookItems() },
			credentialTypes: {
				leadConversationsSigningSecretApi: new LeadConversationsSigningSecretApi(),
			},
			storedCredentials: {
				leadConversationsSigningSecretApi: { signingSecret: options.secret ?? SECRET },
			},
		},
	);
}

export const verifiedOf = (result: RunResult) => result.output(VERIFY, 0).map((item) => item.json);
export const rejectedOf = (result: RunResult) => result.output(VERIFY, 1).map((item) => item.json);
