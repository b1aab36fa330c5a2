// A small OpenAI-compatible chat-completions server on loopback that plays a scripted model:
// each turn of the script looks at the conversation so far (the user's text, the tools offered,
// the tool results received) and answers with tool calls or with a final text. Every request is
// kept, so a test can read what the "model" was shown and what it received back from the tools.

import { randomUUID } from 'crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool' | string;
	content?: string | null | Array<{ type: string; text?: string }>;
	tool_calls?: Array<{
		id: string;
		type: 'function';
		function: { name: string; arguments: string };
	}>;
	tool_call_id?: string;
}

export interface OfferedTool {
	name: string;
	description: string;
	parameters: { properties?: Record<string, { type?: string; description?: string }> };
}

export interface ChatRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: Array<{ type: 'function'; function: OfferedTool }>;
	stream?: boolean;
}

/** A tool result as the model receives it: the raw text, and the same parsed when it is JSON. */
export interface ToolResult {
	toolCallId: string;
	/** The name of the tool called, found through the assistant message that asked for it. */
	name: string;
	arguments: Record<string, unknown>;
	text: string;
	json: unknown;
}

/** What a turn of the script sees. */
export interface TurnView {
	/** 0 for the first answer of a conversation, 1 after the first tool results, ... */
	turn: number;
	userText: string;
	tools: OfferedTool[];
	/** The results of the tool calls of the previous turn (empty on turn 0). */
	lastResults: ToolResult[];
	/** Every tool result of the conversation so far, oldest first. */
	allResults: ToolResult[];
}

export type ScriptedReply =
	| { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> }
	| { text: string };

export type Script = (view: TurnView) => ScriptedReply;

export interface ScriptedChatModel {
	/** Base URL to give n8n's OpenAI credential, e.g. http://127.0.0.1:PORT/v1 */
	baseUrl: string;
	/** Every chat-completions request received, in order. */
	requests: ChatRequest[];
	/** Every reply sent, in order (same index as `requests`). */
	replies: ScriptedReply[];
	close(): Promise<void>;
}

function textOf(content: ChatMessage['content']): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part) => part.text ?? '').join('');
	return '';
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** Reads a request's conversation into what a turn of the script needs. */
export function viewOf(request: ChatRequest): TurnView {
	const calls = new Map<string, { name: string; arguments: Record<string, unknown> }>();
	const allResults: ToolResult[] = [];
	let lastResults: ToolResult[] = [];
	let turn = 0;
	let userText = '';
	for (const message of request.messages) {
		if (message.role === 'user') userText = textOf(message.content);
		if (message.role === 'assistant') {
			turn++;
			lastResults = [];
			for (const call of message.tool_calls ?? []) {
				const args = parseJson(call.function.arguments);
				calls.set(call.id, {
					name: call.function.name,
					arguments: (args && typeof args === 'object' ? args : {}) as Record<string, unknown>,
				});
			}
		}
		if (message.role === 'tool') {
			const call = calls.get(message.tool_call_id ?? '');
			const text = textOf(message.content);
			const result: ToolResult = {
				toolCallId: message.tool_call_id ?? '',
				name: call?.name ?? '',
				arguments: call?.arguments ?? {},
				text,
				json: parseJson(text),
			};
			allResults.push(result);
			lastResults.push(result);
		}
	}
	const tools = (request.tools ?? []).map((tool) => tool.function);
	return { turn, userText, tools, lastResults, allResults };
}

function completionMessage(reply: ScriptedReply): ChatMessage {
	if ('text' in reply) return { role: 'assistant', content: reply.text };
	return {
		role: 'assistant',
		content: null,
		tool_calls: reply.toolCalls.map((call) => ({
			id: `call_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
			type: 'function',
			function: { name: call.name, arguments: JSON.stringify(call.arguments) },
		})),
	};
}

const USAGE = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

function sendJson(res: ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'content-type': 'application/json',
		'content-length': Buffer.byteLength(text),
	});
	res.end(text);
}

/** The answer as one JSON body, or as server-sent events when the client asked to stream. */
function answer(res: ServerResponse, request: ChatRequest, message: ChatMessage): void {
	const id = `chatcmpl-${randomUUID()}`;
	const created = Math.floor(Date.now() / 1000);
	const model = request.model ?? 'scripted';
	const finish = message.tool_calls ? 'tool_calls' : 'stop';
	if (!request.stream) {
		sendJson(res, 200, {
			id,
			object: 'chat.completion',
			created,
			model,
			choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
			usage: USAGE,
		});
		return;
	}
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	const chunk = (delta: object, finishReason: string | null, extra: object = {}) =>
		res.write(
			`data: ${JSON.stringify({
				id,
				object: 'chat.completion.chunk',
				created,
				model,
				choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
				...extra,
			})}\n\n`,
		);
	chunk({ role: 'assistant', content: message.tool_calls ? null : '' }, null);
	if (message.tool_calls) {
		message.tool_calls.forEach((call, index) => chunk({ tool_calls: [{ index, ...call }] }, null));
	} else {
		chunk({ content: textOf(message.content) }, null);
	}
	chunk({}, finish, { usage: USAGE });
	res.write('data: [DONE]\n\n');
	res.end();
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (part: Buffer) => chunks.push(part));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

/** Starts the scripted model on a free loopback port. */
export async function startScriptedChatModel(script: Script): Promise<ScriptedChatModel> {
	const requests: ChatRequest[] = [];
	const replies: ScriptedReply[] = [];
	const server: Server = createServer((req, res) => {
		void (async () => {
			const path = (req.url ?? '').split('?')[0];
			if (req.method === 'GET' && path.endsWith('/models')) {
				sendJson(res, 200, { object: 'list', data: [{ id: 'scripted-model', object: 'model' }] });
				return;
			}
			if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
				sendJson(res, 404, { error: { message: `No route ${req.method} ${path}` } });
				return;
			}
			const request = parseJson(await readBody(req)) as ChatRequest | undefined;
			if (!request || !Array.isArray(request.messages)) {
				sendJson(res, 400, { error: { message: 'Body must be a chat-completions request' } });
				return;
			}
			requests.push(request);
			let reply: ScriptedReply;
			try {
				reply = script(viewOf(request));
			} catch (error) {
				// A script that cannot go on says why, as the model's last words.
				reply = { text: `SCRIPT ERROR: ${(error as Error).message}` };
			}
			replies.push(reply);
			answer(res, request, completionMessage(reply));
		})().catch((error: Error) => {
			if (!res.headersSent) sendJson(res, 500, { error: { message: error.message } });
			else res.end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		replies,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}
