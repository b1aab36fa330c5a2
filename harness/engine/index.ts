// Runs the package's nodes and credential inside n8n's own engine (n8n-core WorkflowExecute,
// HookContext, WebhookContext, RoutingNode) with real HTTP to the sandbox service:
//   runActionNode / runWorkflow  - workflow JSON through WorkflowExecute
//   createTriggerHarness         - webhookMethods and webhook() of a trigger
//   startWebhookReceiver         - n8n's HTTPS webhook endpoint on loopback, for the sandbox to
//                                  deliver to triggers (with unreachable / lost-answer faults)
//   n8nAnswer                    - what n8n sends back to a webhook's sender, for other endpoints
//   runCredentialTest            - the credential form's Test button
//   startTestSandbox             - the service model on a free loopback port
export {
	CREDENTIAL_REFERENCE,
	CREDENTIAL_TYPE,
	createCredentialsHelper,
	HarnessCredentialsHelper,
	type HarnessCredentials,
} from './credentials';
export { runCredentialTest, type CredentialTestResult } from './credentialTest';
export { allLogs } from './logger';
export {
	ACTION_NODE_TYPE,
	createNodeTypes,
	MANUAL_TRIGGER_NODE_TYPE,
	NO_OP_NODE_TYPE,
	testNodeDescription,
	TRIGGER_NODE_TYPE,
} from './nodeTypes';
export {
	n8nAnswer,
	startWebhookReceiver,
	type ReceivedDelivery,
	type ReceiverFault,
	type WebhookReceiver,
} from './receiver';
export { startTestSandbox, type RunningSandbox, type SandboxOptions } from './sandbox';
export {
	createTriggerHarness,
	type DeliveredRequest,
	type DeliveryResult,
	type TriggerHarness,
	type TriggerHarnessOptions,
} from './trigger';
export { DEFAULT_ACTION_NODE_NAME, runActionNode, type RunActionNodeOptions } from './actionNode';
export { type NodeFailure, type RunResult } from './runResult';
export { runWorkflow, type RunWorkflowOptions, type WorkflowSpec } from './workflow';
export { InMemoryDataTables } from './dataTables';
