import type { IExecuteFunctions, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

/** The credential type that holds a signing secret (credentials/LeadConversationsSigningSecretApi). */
export const SIGNING_SECRET_CREDENTIAL = 'leadConversationsSigningSecretApi';

/**
 * The signing secret of the node's Signing Secret credential, or `undefined` when the node has
 * none chosen (it is optional). n8n stores credentials encrypted, unlike node parameters, which
 * travel in plain text with every workflow export.
 */
export async function signingSecretFromCredential(
	context: IHookFunctions | IWebhookFunctions | IExecuteFunctions,
): Promise<string | undefined> {
	if (context.getNode().credentials?.[SIGNING_SECRET_CREDENTIAL] === undefined) return undefined;
	const credential = await context.getCredentials(SIGNING_SECRET_CREDENTIAL);
	const secret = credential.signingSecret;
	return typeof secret === 'string' && secret !== '' ? secret : undefined;
}
