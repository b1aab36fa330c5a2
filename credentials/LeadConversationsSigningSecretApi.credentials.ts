import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The secret the service signs webhook deliveries with. Kept apart from the API key: it belongs
 * to one endpoint (one subscription), and checking a delivery needs no access to the service.
 */
export class LeadConversationsSigningSecretApi implements ICredentialType {
	name = 'leadConversationsSigningSecretApi';

	// The name says what the user pastes here; there is no API behind it.
	// eslint-disable-next-line n8n-nodes-base/cred-class-field-display-name-missing-api
	displayName = 'Lead Conversations Signing Secret';

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
