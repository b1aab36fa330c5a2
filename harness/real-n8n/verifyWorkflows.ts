// Workflows that receive the service's deliveries on n8n's own Webhook node: with the package's
// Event: Verify, and the check users build without the package (Crypto HMAC → IF). Used by the
// end-to-end suite and the bench, so both run the same nodes with the same settings.

import { randomUUID } from 'crypto';

import { actionNodeType } from './paths';

export const SIGNING_SECRET_CREDENTIAL_TYPE = 'leadConversationsSigningSecretApi';

export interface CredentialRef {
	id: string;
	name: string;
}

/** n8n's Webhook node 2: POST, answered at once (so the service's 10 s limit always holds), raw body kept. */
export function rawBodyWebhookNode(path: string, rawBody = true) {
	return {
		id: randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: path,
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'onReceived',
			options: rawBody ? { rawBody: true } : {},
		},
	};
}

function noOp(name: string, x: number, y = 0) {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [x, y],
		parameters: {},
	};
}

const to = (node: string, index = 0) => ({ node, type: 'main', index });

/** Webhook (Raw Body) → Lead Conversations, Event: Verify → Verified / Rejected (No Operation each). */
export function verifyWorkflow(options: {
	id: string;
	path: string;
	secret: CredentialRef;
	actionVersion?: number;
	settings?: object;
}) {
	return {
		id: options.id,
		name: 'Webhook → Verify',
		nodes: [
			rawBodyWebhookNode(options.path),
			{
				id: randomUUID(),
				name: 'Verify',
				type: actionNodeType,
				typeVersion: options.actionVersion ?? 1,
				position: [220, 0],
				parameters: { resource: 'event', operation: 'verify' },
				credentials: { [SIGNING_SECRET_CREDENTIAL_TYPE]: options.secret },
			},
			noOp('Verified', 440, -100),
			noOp('Rejected', 440, 100),
		],
		connections: {
			Webhook: { main: [[to('Verify')]] },
			Verify: { main: [[to('Verified')], [to('Rejected')]] },
		},
		settings: options.settings ?? { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * What a user builds without the package: Webhook (Raw Body) → Crypto (HMAC-SHA256, hex, over the
 * binary body, secret in a Crypto credential) → IF (digest equals the header) → No Operation.
 */
export function diyChainWorkflow(options: {
	id: string;
	path: string;
	crypto: CredentialRef;
	settings?: object;
}) {
	return {
		id: options.id,
		name: 'Webhook → Crypto → IF',
		nodes: [
			rawBodyWebhookNode(options.path),
			{
				id: randomUUID(),
				name: 'Crypto',
				type: 'n8n-nodes-base.crypto',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					action: 'hmac',
					binaryData: true,
					binaryPropertyName: 'data',
					type: 'SHA256',
					dataPropertyName: 'digest',
					encoding: 'hex',
				},
				credentials: { crypto: options.crypto },
			},
			{
				id: randomUUID(),
				name: 'If',
				type: 'n8n-nodes-base.if',
				typeVersion: 2.2,
				position: [440, 0],
				parameters: {
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
						conditions: [
							{
								id: randomUUID(),
								leftValue: '={{ $json.digest }}',
								rightValue: "={{ $json.headers['x-service-signature'] }}",
								operator: { type: 'string', operation: 'equals' },
							},
						],
						combinator: 'and',
					},
					options: {},
				},
			},
			noOp('No Operation, do nothing', 660, 0),
		],
		connections: {
			Webhook: { main: [[to('Crypto')]] },
			Crypto: { main: [[to('If')]] },
			If: { main: [[to('No Operation, do nothing')]] },
		},
		settings: options.settings ?? { executionOrder: 'v1' },
		pinData: {},
	};
}
