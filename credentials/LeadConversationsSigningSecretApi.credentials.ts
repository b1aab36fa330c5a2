import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The secret the service signs webhook deliveries with. Kept apart from the API key: it belongs
 * to one endpoint (one subscription), and checking a delivery needs no access to the service.
 */
export class LeadConversationsSigningSecretApi implements ICredentialType {
	name = 'leadConversationsSigningSecretApi';

	// n8n's community-package scan requires credential names to end in "API".
	displayName = 'Lead Conversations Signing Secret API';

	icon: Icon = {
		light: 'file:../icons/leadConversations.svg',
		dark: 'file:../icons/leadConversations.dark.svg',
	};

	documentationUrl =
		'https://github.com/lead-conversations/n8n-nodes-lead-conversations#verifying-events-from-a-webhook-node';

	properties: INodeProperties[] = [
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				"Shown once when the endpoint is added in the service's dashboard (Settings, Webhooks), or returned by Webhook Subscription: Create",
		},
	];
}
