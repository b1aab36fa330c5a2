import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The secret the service signs webhook deliveries with. A credential rather than a node
 * parameter so that n8n stores it encrypted and it never travels in a workflow's JSON.
 */
export class LeadConversationsSigningSecretApi implements ICredentialType {
	name = 'leadConversationsSigningSecretApi';

	displayName = 'Lead Conversations Signing Secret API';

	icon: Icon = {
		light: 'file:../icons/leadConversations.svg',
		dark: 'file:../icons/leadConversations.dark.svg',
	};

	documentationUrl =
		'https://github.com/lead-conversations/n8n-nodes-lead-conversations#signing-secret';

	properties: INodeProperties[] = [
		// n8n words every passing credential test "Connection tested successfully"; this one
		// connects nowhere, so the form says what the test does check.
		{
			displayName:
				'The service offers no way to check a signing secret, so Test only checks that it is filled in without spaces around it. The first delivery the trigger accepts (or Event → Verify passes) proves it.',
			name: 'testNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				"Shown once by the service's dashboard when the endpoint is added (Settings, Webhooks, Add Endpoint), or returned by Webhook Subscription: Create. Every delivery's X-Service-Signature is checked against it.",
		},
	];
}
