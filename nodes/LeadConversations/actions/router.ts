// Reads resource and operation, runs the operation once per input item, and owns what every
// operation shares: pairing each output item with its input, and "continue on fail".

import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeError, NodeOperationError } from 'n8n-workflow';

import { agentOperations } from './agent/Agent.resource';
import { conversationOperations } from './conversation/Conversation.resource';
import { eventOperations } from './event/Event.resource';
import { leadOperations } from './lead/Lead.resource';
import { explainForModel, isToolNode, toolContext } from './tool';
import { webhookSubscriptionOperations } from './webhookSubscription/WebhookSubscription.resource';

type Operation = (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject[]>;

/** Every operation the node runs, by resource: a resource file lists its own. */
export const operationsByResource: Record<string, Record<string, { execute: Operation }>> = {
	lead: leadOperations,
	conversation: conversationOperations,
	agent: agentOperations,
	webhookSubscription: webhookSubscriptionOperations,
};

/** Operations that take all items at once and fill the node's outputs themselves. */
export const wholeInputOperations: Record<
	string,
	Record<string, { execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]> }>
> = { event: eventOperations };

function errorItem(error: Error & { description?: string | null; httpCode?: string | null }) {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error.httpCode) json.httpCode = error.httpCode;
	return json;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const wholeInput = wholeInputOperations[resource]?.[operation]?.execute;
	if (wholeInput) return await wholeInput.call(this);
	const run = operationsByResource[resource]?.[operation]?.execute;
	if (!run) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not known`,
		);
	}

	const asTool = isToolNode(this);
	const context = asTool ? toolContext(this) : this;
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			// An item's records join the output only once the item succeeded as a whole.
			const records = await run.call(context, itemIndex);
			for (const json of records) returnData.push({ json, pairedItem: { item: itemIndex } });
		} catch (error) {
			if (asTool) explainForModel(error);
			if (this.continueOnFail()) {
				returnData.push({ json: errorItem(error as Error), pairedItem: { item: itemIndex } });
				continue;
			}
			// Errors of the transport and of validation are already NodeApiError or
			// NodeOperationError; n8n hands those back unchanged when wrapped again, ignoring the
			// options, so the item is set on the error itself when it does not name one yet.
			if (error instanceof NodeError) error.context.itemIndex ??= itemIndex;
			if (error instanceof NodeApiError) {
				throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
			}
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
	}
	return [returnData];
}
