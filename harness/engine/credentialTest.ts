import { ExecuteContext, RoutingNode } from 'n8n-core';
import {
	createRunExecutionData,
	UserError,
	Workflow,
	type ICredentialsDecrypted,
	type ICredentialTestRequest,
	type IDataObject,
	type IExecuteData,
	type INode,
	type INodeCredentialTestResult,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
} from 'n8n-workflow';

import { createAdditionalData } from './additionalData';
import {
	CREDENTIAL_REFERENCE,
	CREDENTIAL_TYPE,
	createCredentialsHelper,
	nodeCredentials,
	type HarnessCredentials,
} from './credentials';
import { captureLogs } from './logger';
import { createNodeTypes, NO_OP_NODE_TYPE } from './nodeTypes';

export interface CredentialTestResult extends INodeCredentialTestResult {
	/** Lines n8n's loggers wrote during the test. */
	logs: string[];
}

type RoutingError = Error & {
	cause?: { response?: { status: number; statusText?: string }; code?: string };
};

/**
 * What the credential form's "Test" button does for a credential with a `test` request
 * (cli `credentials-tester.service.ts testCredentials`): the request is set as the routing of
 * a throw-away No-Op node, run by n8n-core's RoutingNode with the credential's `authenticate`
 * applied, and the outcome is mapped through the `rules` the credential declares.
 */
export async function runCredentialTest(
	credentials: HarnessCredentials,
): Promise<CredentialTestResult> {
	const readLogs = captureLogs();
	const credentialsHelper = createCredentialsHelper(credentials);
	const credentialType = credentialsHelper.getCredentialType(CREDENTIAL_TYPE);
	const testRequest: ICredentialTestRequest | undefined = credentialType.test;
	if (testRequest === undefined) {
		throw new UserError(`Credential type "${CREDENTIAL_TYPE}" has no test request`);
	}

	const noOp = createNodeTypes().getByNameAndVersion(NO_OP_NODE_TYPE);
	const nodeTypeCopy: INodeType = {
		description: {
			...noOp.description,
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const mockNodeTypes: INodeTypes = {
		getByName: () => nodeTypeCopy,
		getByNameAndVersion: () => nodeTypeCopy,
		getKnownTypes: () => ({}),
	};

	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: NO_OP_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		credentials: nodeCredentials(),
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: mockNodeTypes,
	});

	// n8n fills the credential's defaults before testing (applyDefaultsAndOverwrites).
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: CREDENTIAL_REFERENCE.id ?? 'credential',
		name: CREDENTIAL_REFERENCE.name,
		type: CREDENTIAL_TYPE,
		data: await credentialsHelper.getDecrypted(
			{} as never,
			CREDENTIAL_REFERENCE,
			CREDENTIAL_TYPE,
			'internal',
		),
	};

	const additionalData = createAdditionalData({ credentialsHelper });
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	const routingNode = new RoutingNode(context, nodeTypeCopy, credentialsDecrypted);

	const result = (outcome: INodeCredentialTestResult): CredentialTestResult => ({
		...outcome,
		logs: readLogs(),
	});

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		const error = caught as RoutingError;
		if (error.cause?.response) {
			const statusCode = error.cause.response.status;
			const statusMessage = error.cause.response.statusText;
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && statusCode === rule.properties.value) {
					return result({ status: 'Error', message: rule.properties.message });
				}
			}
			if (statusCode < 199 || statusCode > 299) {
				return result({
					status: 'Error',
					message: statusMessage || `Received HTTP status code: ${statusCode}`,
				});
			}
		} else if (error.cause?.code) {
			return result({ status: 'Error', message: error.cause.code });
		}
		return result({ status: 'Error', message: String(error.message) });
	}

	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const responseData = response?.[0]?.[0]?.json as IDataObject | undefined;
			if (getPath(responseData, rule.properties.key) === rule.properties.value) {
				return result({ status: 'Error', message: rule.properties.message });
			}
		}
	}
	return result({ status: 'OK', message: 'Connection successful!' });
}

function getPath(data: IDataObject | undefined, path: string): unknown {
	let current: unknown = data;
	for (const key of path.split('.')) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as IDataObject)[key];
	}
	return current;
}
