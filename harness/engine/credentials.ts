import { Credentials } from 'n8n-core';
import {
	ICredentialsHelper,
	NodeHelpers,
	UserError,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeParameters,
	type INodeProperties,
	type IRequestOptionsSimplified,
	type IWorkflowDataProxyAdditionalKeys,
	type IWorkflowExecuteAdditionalData,
	type IExecuteData,
	type ICredentialsExpressionResolveValues,
	type Workflow,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { LeadConversationsApi } from '../../credentials/LeadConversationsApi.credentials';

export const CREDENTIAL_TYPE = 'leadConversationsApi';

/** What a user types into the credential form. */
export interface HarnessCredentials {
	apiKey: string;
	baseUrl: string;
}

/** The reference a workflow node stores for its credential (n8n keeps only id and name there). */
export const CREDENTIAL_REFERENCE: INodeCredentialsDetails = {
	id: 'lead-conversations-credential',
	name: 'Lead Conversations account',
};

/** A node's `credentials` field as the editor writes it when our credential is chosen. */
export function nodeCredentials(): NonNullable<INode['credentials']> {
	return { [CREDENTIAL_TYPE]: { ...CREDENTIAL_REFERENCE } };
}

export function createCredentialTypes(
	extra: Record<string, ICredentialType> = {},
): Record<string, ICredentialType> {
	return { [CREDENTIAL_TYPE]: new LeadConversationsApi(), ...extra };
}

/**
 * Stands in for n8n's CredentialsHelper (packages/cli/src/credentials-helper.ts): the stored data
 * of each credential type is handed out with the type's defaults applied, and `authenticate`
 * applies the credential type's own definition, resolving `={{$credentials.…}}` through the
 * workflow's expression engine exactly as n8n does. Node code never sees how the key is sent.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly stored: Record<string, ICredentialDataDecryptedObject>;

	constructor(
		stored: Record<string, ICredentialDataDecryptedObject>,
		private readonly credentialTypes: Record<string, ICredentialType> = createCredentialTypes(),
	) {
		super();
		this.stored = structuredClone(stored);
	}

	getCredentialType(typeName: string): ICredentialType {
		const credentialType = this.credentialTypes[typeName];
		if (credentialType === undefined) {
			throw new UserError(`Unknown credential type "${typeName}"`);
		}
		return credentialType;
	}

	getParentTypes(typeName: string): string[] {
		const parents = this.credentialTypes[typeName]?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions & Record<string, unknown>;
		const { authenticate } = this.getCredentialType(typeName);
		if (authenticate === undefined) return requestOptions;

		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}

		if (!workflow || !node) {
			throw new UserError(
				'Workflow and node are required for declarative credential authentication',
			);
		}
		if (requestOptions.headers === undefined) requestOptions.headers = {};

		if (authenticate.type === 'generic') {
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
					const keyResolved = resolveValue(key, { $credentials: credentials }, workflow, node);
					const valueResolved = resolveValue(value, { $credentials: credentials }, workflow, node);
					const target = (requestOptions[outerKey] ?? {}) as Record<string, unknown>;
					target[keyResolved] = valueResolved;
					requestOptions[outerKey] = target;
				}
			}
		}
		return requestOptions;
	}

	// Same rule as n8n: only credential types with an expirable hidden property pre-authenticate.
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.getCredentialType(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable === undefined || typeof credentialType.preAuthentication !== 'function') {
			return undefined;
		}
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;

		const output = await credentialType.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		this.stored[typeName] = {
			...this.stored[typeName],
			...output,
		} as ICredentialDataDecryptedObject;
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const { preAuthentication } = this.getCredentialType(typeName);
		if (typeof preAuthentication !== 'function') return undefined;
		return (await preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string) {
		const credentials = new Credentials(
			{ id: nodeCredentials.id, name: nodeCredentials.name },
			type,
		);
		credentials.setData(this.storedData(nodeCredentials, type));
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.storedData(nodeCredentials, type);
		if (raw === true) return stored;

		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			stored as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;

		if (expressionResolveValues === undefined) return withDefaults;

		return expressionResolveValues.workflow.expression.getParameterValue(
			withDefaults as INodeParameters,
			expressionResolveValues.runExecutionData,
			expressionResolveValues.runIndex,
			expressionResolveValues.itemIndex,
			expressionResolveValues.node.name,
			expressionResolveValues.connectionInputData,
			mode,
			{},
			executeData,
			false,
			withDefaults,
		) as ICredentialDataDecryptedObject;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.getCredentialType(type);
		const inherited = (credentialType.extends ?? []).flatMap((parent) =>
			this.getCredentialsProperties(parent),
		);
		const own = new Set(credentialType.properties.map((property) => property.name));
		return [
			...inherited.filter((property) => !own.has(property.name)),
			...credentialType.properties,
		];
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.stored[type] = structuredClone(data);
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.stored[type] = { ...this.stored[type], oauthTokenData: data.oauthTokenData };
	}

	// A fresh copy per call, like a decryption: n8n-core mutates what it is handed.
	private storedData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): ICredentialDataDecryptedObject {
		const data = this.stored[type];
		if (data === undefined) {
			throw new UserError(
				`Credential with ID "${nodeCredentials.id ?? ''}" does not exist for type "${type}".`,
			);
		}
		return structuredClone(data);
	}
}

function resolveValue(
	parameterValue: string,
	additionalKeys: IWorkflowDataProxyAdditionalKeys,
	workflow: Workflow,
	node: INode,
): string {
	if (typeof parameterValue !== 'string' || !parameterValue.startsWith('=')) return parameterValue;
	const returnValue = workflow.expression.getSimpleParameterValue(
		node,
		parameterValue,
		'internal',
		additionalKeys,
		undefined,
		'',
	);
	if (!returnValue) return '';
	return String(returnValue as string);
}

/** The helper for one credential of our type, holding what the user entered. */
export function createCredentialsHelper(
	credentials: HarnessCredentials,
	extra: {
		stored?: Record<string, ICredentialDataDecryptedObject>;
		types?: Record<string, ICredentialType>;
	} = {},
): HarnessCredentialsHelper {
	return new HarnessCredentialsHelper(
		{ [CREDENTIAL_TYPE]: { ...credentials }, ...(extra.stored ?? {}) },
		createCredentialTypes(extra.types),
	);
}
