import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHookFunctions,
	INodeCredentialTestResult,
	IWebhookFunctions,
} from 'n8n-workflow';

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

/**
 * The credential form's Test button. The service offers no call that checks a signing secret,
 * so this checks what can be checked without one: that it is there and has no stray spaces
 * from copying it out of the dashboard (they would make every signature mismatch). n8n shows
 * only its own "Connection tested successfully" for a pass, never this message, so the form
 * carries a notice saying what a pass means. No test at all would be plainer, but n8n's
 * community-node rules (credential-test-required) refuse a credential without one.
 */
export async function testSigningSecret(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const secret = credential.data?.signingSecret;
	if (typeof secret !== 'string' || secret === '') {
		return { status: 'Error', message: 'The signing secret is empty' };
	}
	if (secret.trim() !== secret) {
		return {
			status: 'Error',
			message: 'The signing secret starts or ends with a space; copy it again without it',
		};
	}
	return {
		status: 'OK',
		message: 'The secret is filled in; it is proven by the first delivery the trigger accepts',
	};
}
