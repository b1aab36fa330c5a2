import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INodeCredentialTestResult,
} from 'n8n-workflow';

/**
 * The credential form's Test button. A signing secret cannot be checked with the service (it
 * only signs deliveries), so this catches what goes wrong when pasting it.
 */
export async function leadConversationsSigningSecretTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const secret = credential.data?.signingSecret;
	if (typeof secret !== 'string' || secret === '') {
		return { status: 'Error', message: 'Signing Secret is empty' };
	}
	if (secret.trim() !== secret) {
		return {
			status: 'Error',
			message: 'Signing Secret starts or ends with white space; paste it exactly as shown',
		};
	}
	return { status: 'OK', message: 'Signing Secret is set; deliveries signed with it will verify' };
}
