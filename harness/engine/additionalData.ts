import type { ExecutionLifecycleHooks } from 'n8n-core';
import {
	UserError,
	type ICredentialsHelper,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

export const DEFAULT_INSTANCE_URL = 'https://n8n.example.test/';

/**
 * The per-execution services n8n's cli hands to the engine (cli
 * `workflow-execute-additional-data.ts getBase`), reduced to what a single-package test needs.
 * URLs follow n8n's layout: `<instance>/webhook`, `<instance>/webhook-test`, and so on.
 */
export function createAdditionalData(options: {
	credentialsHelper: ICredentialsHelper;
	instanceUrl?: string;
	hooks?: ExecutionLifecycleHooks;
	executionId?: string;
	workflowId?: string;
}): IWorkflowExecuteAdditionalData {
	const instanceUrl = withTrailingSlash(options.instanceUrl ?? DEFAULT_INSTANCE_URL);
	const unsupported = (what: string) => async () => {
		throw new UserError(`${what} is not available in the test harness`);
	};

	const additionalData: Partial<IWorkflowExecuteAdditionalData> = {
		credentialsHelper: options.credentialsHelper,
		hooks: options.hooks,
		executionId: options.executionId,
		workflowId: options.workflowId,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${instanceUrl}rest`,
		instanceBaseUrl: instanceUrl,
		formBaseUrl: `${instanceUrl}form`,
		formWaitingBaseUrl: `${instanceUrl}form-waiting`,
		formTestBaseUrl: `${instanceUrl}form-test`,
		webhookBaseUrl: `${instanceUrl}webhook`,
		webhookWaitingBaseUrl: `${instanceUrl}webhook-waiting`,
		webhookTestBaseUrl: `${instanceUrl}webhook-test`,
		mcpBaseUrl: `${instanceUrl}mcp`,
		mcpTestBaseUrl: `${instanceUrl}mcp-test`,
		variables: {},
		executeWorkflow: unsupported('Executing a sub-workflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: unsupported('The Code node task runner'),
	};
	return additionalData as IWorkflowExecuteAdditionalData;
}

export function withTrailingSlash(url: string): string {
	return url.endsWith('/') ? url : `${url}/`;
}
