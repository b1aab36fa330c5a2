// What a request needs from the credential: the Base URL, the account's name, the pacing state of
// the key, and a redactor that keeps the key out of every text that leaves the transport.

import { createHash } from 'crypto';
import type {
	FunctionsBase,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { normalizeBaseUrl } from '../baseUrl';
import { CREDENTIAL_NAME } from '../constants';
import type { PacingState } from './pacingState';
import { pacingStateFor } from './pacingState';

export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;

export interface Connection {
	baseUrl: string;
	/** The service and key, as one name that holds no secret: the Base URL and a hash of the key. */
	account: string;
	pacing: PacingState;
	/** Removes the API key from any text that leaves the transport. */
	redact: (text: string) => string;
}

function redactor(apiKey: string): (text: string) => string {
	if (apiKey.length < 4) return (text) => text;
	return (text) => text.split(apiKey).join('[redacted]');
}

// One credential read per execution context and item: in a running n8n `getCredentials` is a
// database read plus decryption (~0.45 ms), which a Return All would otherwise pay on every page.
const connections = new WeakMap<object, Map<number | undefined, Promise<Connection>>>();

export function connectionOf(this: ApiContext, itemIndex?: number): Promise<Connection> {
	let byItem = connections.get(this);
	if (!byItem) {
		byItem = new Map();
		connections.set(this, byItem);
	}
	let connection = byItem.get(itemIndex);
	if (!connection) {
		connection = readConnection.call(this, itemIndex);
		// A failed read (say, a Base URL without /v1) is not remembered: the next item reads again.
		connection.catch(() => byItem.delete(itemIndex));
		byItem.set(itemIndex, connection);
	}
	return connection;
}

/**
 * The key is read only to tell keys apart: the pacing state is keyed by a truncated hash, and the
 * key itself reaches the service through the credential's `authenticate`.
 */
async function readConnection(this: ApiContext, itemIndex?: number): Promise<Connection> {
	const credentials = await (this as FunctionsBase).getCredentials<IDataObject>(
		CREDENTIAL_NAME,
		itemIndex,
	);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	let baseUrl: string;
	try {
		baseUrl = normalizeBaseUrl(String(credentials.baseUrl ?? ''));
	} catch (error) {
		throw new NodeOperationError(this.getNode(), (error as Error).message, { itemIndex });
	}
	const fingerprint = createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
	const account = `${baseUrl}#${fingerprint}`;
	return {
		baseUrl,
		account,
		pacing: pacingStateFor(account),
		redact: redactor(apiKey),
	};
}

/** The account the credential names (Base URL and key), for state kept per account in this process. */
export async function accountOf(this: ApiContext, itemIndex?: number): Promise<string> {
	return (await connectionOf.call(this, itemIndex)).account;
}
