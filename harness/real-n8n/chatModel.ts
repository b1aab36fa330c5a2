import { writeFileSync } from 'fs';
import { join } from 'path';

import { n8nCli } from './n8n-cli';

/** The id and name of the chat model credential the assistant example refers to. */
export const CHAT_MODEL_CREDENTIAL_ID = 'LcChatModelCred01';
export const CHAT_MODEL_CREDENTIAL_NAME = 'OpenAI account';

/**
 * Stores an OpenAI credential whose Base URL is an OpenAI-compatible server (in the suite, the
 * scripted model on loopback), as a user does for any OpenAI-compatible service.
 */
export async function importChatModelCredential(
	userFolder: string,
	baseUrl: string,
): Promise<void> {
	const file = join(userFolder, 'chat-model-credential.json');
	writeFileSync(
		file,
		JSON.stringify([
			{
				id: CHAT_MODEL_CREDENTIAL_ID,
				name: CHAT_MODEL_CREDENTIAL_NAME,
				type: 'openAiApi',
				data: { apiKey: 'sk-scripted-model', organizationId: '', url: baseUrl, header: false },
			},
		]),
	);
	await n8nCli(userFolder, ['import:credentials', `--input=${file}`]);
}
