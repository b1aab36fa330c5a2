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
