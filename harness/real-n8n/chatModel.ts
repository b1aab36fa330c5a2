import { writeFileSync } from 'fs';
import { join } from 'path';

import { n8nCli } from './n8n-cli';

/** The id and name of the chat model credential the assistant example refers to. */
export const CHAT_MODEL_CREDENTIAL_ID = 'LcChatModelCred01';
export const CHAT_MODEL_CREDENTIAL_NAME = 'OpenAI account';

/**
 * An OpenAI credential whose Base URL is an OpenAI-compatible server (in the suites, the
 * scripted model on loopback), as a user makes one for any OpenAI-compatible service.
 */
export function chatModelCredential(baseUrl: string) {
	return {
		id: CHAT_MODEL_CREDENTIAL_ID,
		name: CHAT_MODEL_CREDENTIAL_NAME,
		type: 'openAiApi',
		data: { apiKey: 'sk-scripted-model', organizationId: '', url: baseUrl, header: false },
	};
}

/** Stores that credential in an n8n user folder. */
export async function importChatModelCredential(
	userFolder: string,
	baseUrl: string,
): Promise<void> {
	const file = join(userFolder, 'chat-model-credential.json');
	writeFileSync(file, JSON.stringify([chatModelCredential(baseUrl)]));
	await n8nCli(userFolder, ['import:credentials', `--input=${file}`]);
}

interface WorkflowJson {
	id: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, any>; [key: string]: any }>;
	connections: Record<string, any>;
	[key: string]: unknown;
}

/**
 * An agent workflow whose Chat Trigger is swapped for a Manual Trigger named "Run", the question
 * written into the agent, so that `n8n execute` runs it headless.
 */
export function headlessAgentWorkflow(workflow: WorkflowJson, question: string, id: string) {
	const copy = JSON.parse(JSON.stringify(workflow)) as WorkflowJson;
	const chat = copy.nodes.find((node) => node.type.endsWith('.chatTrigger'))!;
	const agent = copy.nodes.find((node) => node.type.endsWith('.agent'))!;
	const chatName = chat.name;
	Object.assign(chat, {
		name: 'Run',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		parameters: {},
	});
	delete chat.webhookId;
	agent.parameters = { ...agent.parameters, promptType: 'define', text: question };
	copy.connections.Run = copy.connections[chatName];
	delete copy.connections[chatName];
	return { ...copy, id, name: 'Agent with Lead Conversations tools' };
}
