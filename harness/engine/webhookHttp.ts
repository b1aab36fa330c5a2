import type {
	IDataObject,
	INode,
	INodeExecutionData,
	IWebhookDescription,
	IWebhookResponseData,
} from 'n8n-workflow';

// The HTTP side of a webhook call as n8n's webhook service handles it: the request a node sees,
// the response object it may write to, and the answer n8n sends when the node leaves it to n8n.

export interface DeliveredRequest {
	/** The exact bytes that arrive; a string is sent as UTF-8. */
	body: Buffer | string;
	headers: Record<string, string | string[]>;
	/** Defaults to POST, the method the service delivers with. */
	method?: string;
	query?: IDataObject;
}

export interface DeliveryResult {
	/** What the sender of the webhook receives. */
	statusCode: number;
	body: unknown;
	headers: Record<string, string>;
	/** The items each output starts the workflow with, when the node started a run. */
	runs: INodeExecutionData[][];
	webhookResponse?: unknown;
	noWebhookResponse?: boolean;
	/** The error webhook() threw; n8n then answers 500 and starts no run. */
	error?: Error;
	/**
	 * Whether the node wrote the answer itself inside webhook(). When it did not and a run
	 * starts, n8n 2.x answers only after it has created the execution.
	 */
	answeredInWebhook: boolean;
}

/** An Express-like request carrying exactly the delivered bytes, as n8n's raw-body reader keeps them. */
export function incomingRequest(request: DeliveredRequest, node: INode) {
	const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
	const headers: Record<string, string | string[]> = {};
	for (const [name, value] of Object.entries(request.headers)) {
		headers[name.toLowerCase()] = value;
	}
	const header = (name: string) => headers[name.toLowerCase()];
	const contentType = String(headers['content-type'] ?? '')
		.split(';')[0]
		.trim();
	return {
		method: request.method ?? 'POST',
		url: `/webhook/${node.webhookId}/webhook`,
		path: `/webhook/${node.webhookId}/webhook`,
		headers,
		rawBody,
		body: parseJson(rawBody),
		query: request.query ?? {},
		params: {},
		contentType,
		header,
		get: header,
		readRawBody: async () => {},
	};
}

// n8n parses the body separately from keeping the raw bytes; anything unparseable arrives as {}.
function parseJson(rawBody: Buffer): unknown {
	try {
		return JSON.parse(rawBody.toString('utf8')) as unknown;
	} catch {
		return {};
	}
}

/** An Express-like response that records what the node wrote to it. */
export class RecordedResponse {
	statusCode = 200;

	body: unknown = undefined;

	headers: Record<string, string> = {};

	headersSent = false;

	writableEnded = false;

	status(code: number) {
		this.statusCode = code;
		return this;
	}

	sendStatus(code: number) {
		this.statusCode = code;
		return this.end();
	}

	setHeader(name: string, value: string) {
		this.headers[name.toLowerCase()] = String(value);
		return this;
	}

	header(name: string, value: string) {
		return this.setHeader(name, value);
	}

	set(name: string, value: string) {
		return this.setHeader(name, value);
	}

	writeHead(code: number, headers: Record<string, string> = {}) {
		this.statusCode = code;
		for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
		this.headersSent = true;
		return this;
	}

	json(body: unknown) {
		this.body = body;
		this.headersSent = true;
		return this;
	}

	send(body?: unknown) {
		if (body !== undefined) this.body = body;
		this.headersSent = true;
		return this;
	}

	write(chunk: unknown) {
		this.body = this.body === undefined ? chunk : `${String(this.body)}${String(chunk)}`;
		this.headersSent = true;
		return true;
	}

	end(body?: unknown) {
		if (body !== undefined) this.body = body;
		this.headersSent = true;
		this.writableEnded = true;
		return this;
	}
}

/**
 * n8n's answer for a webhook in `onReceived` response mode (cli webhook-helpers
 * `handleImmediateWebhookResponse` and `extractWebhookOnReceivedResponse`).
 */
export function answer(
	result: IWebhookResponseData,
	response: RecordedResponse,
	webhook: IWebhookDescription,
): DeliveryResult {
	const runs = result.workflowData ?? [];
	const common = {
		headers: response.headers,
		runs,
		webhookResponse: result.webhookResponse as unknown,
		noWebhookResponse: result.noWebhookResponse,
		answeredInWebhook: response.headersSent,
	};
	const responseCode = typeof webhook.responseCode === 'number' ? webhook.responseCode : 200;

	if (result.noWebhookResponse === true) {
		return { ...common, statusCode: response.statusCode, body: response.body };
	}
	if (result.workflowData === undefined) {
		const body =
			result.webhookResponse !== undefined
				? (result.webhookResponse as unknown)
				: { message: 'Webhook call received' };
		return { ...common, statusCode: responseCode, body };
	}
	// n8n 2.x sends this once WorkflowRunner.run() has created the execution. An unset
	// responseData is evaluated to its default, the literal text "firstEntryJson".
	const responseData = webhook.responseData ?? 'firstEntryJson';
	let body: unknown;
	if (responseData === 'noData') body = undefined;
	else if (typeof responseData === 'string' && responseData !== '' && !responseData.startsWith('='))
		body = responseData;
	else if (result.webhookResponse !== undefined) body = result.webhookResponse as unknown;
	else body = { message: 'Workflow was started' };
	return { ...common, statusCode: responseCode, body };
}
