import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { SIGNATURE_HEADER } from '../../../shared/constants';
import { type OutputShape, outputJson } from '../../../shared/events/payload';
import { SIGNING_SECRET_CREDENTIAL } from '../../../shared/events/signingSecret';
import { eventOutputOption, maxEventAgeOption } from '../../../shared/events/options';
import { type ReplayWindow, replayWindowOf } from '../../../shared/events/replayWindow';
import { collectionParameter } from '../input';
import { type DeliveryCheck, type Rejection, checkDelivery } from './checkDelivery';
import { storedKeyOf, unseenDeliveries } from './seenDeliveries';
import { optionsCollection } from '../../../shared/descriptions';

const properties: INodeProperties[] = [
	{
		displayName:
			'Put this node right after a Webhook node (POST, Raw Body on in its options, Respond: Immediately), so the service gets its answer at once and this node sees the exact bytes it signed',
		name: 'verifyNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Rejected Deliveries',
		name: 'rejected',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Send to Rejected Output',
				value: 'output',
				description:
					'A second output receives each refused delivery with the reason; duplicates go there too',
			},
			{
				name: 'Fail the Item',
				value: 'error',
				description:
					"A refused delivery is an error of its item (see the node's On Error setting); duplicates are dropped",
			},
		],
		default: 'output',
	},
	{
		displayName: 'Raw Body Field',
		name: 'rawBodyField',
		type: 'string',
		default: 'data',
		required: true,
		description:
			'The binary field holding the request body as received; the Webhook node names it "data" when its Raw Body option is on',
	},
	optionsCollection([
		maxEventAgeOption(
			"Refuse (reason outside_replay_window) an event whose timestamp is older than this, or more than 5 minutes ahead, even when correctly signed: it can only be a captured delivery sent again. The service's last retry comes about 36 minutes after the first attempt.",
		),
		eventOutputOption,
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['verify'] } },
	properties,
);

interface Settings {
	signingSecret: string;
	rejectedToOutput: boolean;
	rawBodyField: string;
	output: OutputShape;
	replayWindow: ReplayWindow;
}

async function readSettings(context: IExecuteFunctions): Promise<Settings> {
	const credentials = await context.getCredentials(SIGNING_SECRET_CREDENTIAL);
	const signingSecret = credentials.signingSecret;
	if (typeof signingSecret !== 'string' || signingSecret === '') {
		throw new NodeOperationError(
			context.getNode(),
			'The Lead Conversations Signing Secret API credential has no Signing Secret',
		);
	}
	const options = collectionParameter.call(context, 'options', 0);
	return {
		signingSecret,
		rejectedToOutput: context.getNodeParameter('rejected', 0, 'output') !== 'error',
		rawBodyField: String(context.getNodeParameter('rawBodyField', 0, 'data')).trim(),
		output: options.output === 'data' ? 'data' : 'payload',
		replayWindow: replayWindowOf(options.maxEventAge),
	};
}

/** The exact bytes and the signature header of one Webhook-node item. */
async function readDelivery(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	field: string,
): Promise<{ rawBody: Buffer; header: string | string[] | undefined }> {
	if (!item.binary?.[field]) {
		throw new NodeOperationError(
			context.getNode(),
			`The item has no binary field "${field}" holding the raw body [item ${itemIndex}]`,
			{
				itemIndex,
				description:
					"Turn on Raw Body in the Webhook node's options (Add Option, Raw Body), or set Raw Body Field to the binary field that holds the request body. A body parsed and written out again is not the one that was signed.",
			},
		);
	}
	const headers = item.json.headers;
	if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) {
		throw new NodeOperationError(
			context.getNode(),
			`The item has no "headers" object, as a Webhook node outputs [item ${itemIndex}]`,
			{ itemIndex },
		);
	}
	const rawBody = await context.helpers.getBinaryDataBuffer(itemIndex, field);
	return { rawBody, header: (headers as IDataObject)[SIGNATURE_HEADER] as string | undefined };
}

function rejectionJson(rejection: Rejection, check?: DeliveryCheck): IDataObject {
	const json: IDataObject = { reason: rejection.reason, message: rejection.message };
	if (check && 'payload' in check) {
		json.event = check.payload.event;
		json.timestamp = check.payload.timestamp;
	}
	return json;
}

const DUPLICATE: Rejection = {
	reason: 'duplicate',
	message: 'This event was already verified once (a retry or a copy of an earlier delivery)',
};

/**
 * One verified item per new delivery, in input order. Everything about the bytes is checked
 * first; then the survivors' keys are looked up and recorded in one call, so an execution with
 * many items reads and writes the duplicate memory once.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const settings = await readSettings(this);
	const now = Date.now();

	const verified: INodeExecutionData[] = [];
	const rejected: INodeExecutionData[] = [];
	const refuse = (itemIndex: number, rejection: Rejection, check?: DeliveryCheck) => {
		if (settings.rejectedToOutput) {
			rejected.push({ json: rejectionJson(rejection, check), pairedItem: { item: itemIndex } });
			return;
		}
		if (rejection.reason === 'duplicate') return;
		const error = new NodeOperationError(
			this.getNode(),
			`Delivery refused: ${rejection.message} [item ${itemIndex}]`,
			{ itemIndex, description: `Reason: ${rejection.reason}` },
		);
		if (!this.continueOnFail()) throw error;
		verified.push({
			json: { error: error.message, ...rejectionJson(rejection, check) },
			pairedItem: { item: itemIndex },
		});
	};

	const checked: Array<{ itemIndex: number; check: DeliveryCheck; key?: string }> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		let delivery;
		try {
			delivery = await readDelivery(this, items[itemIndex], itemIndex, settings.rawBodyField);
		} catch (error) {
			if (!this.continueOnFail()) {
				throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			}
			verified.push({ json: { error: (error as Error).message }, pairedItem: { item: itemIndex } });
			continue;
		}
		const { rawBody, header } = delivery;
		const check = checkDelivery(
			settings.signingSecret,
			rawBody,
			header,
			now,
			settings.replayWindow,
		);
		// A refusal that fails the execution does so before anything is recorded as seen.
		if (!('payload' in check) && !settings.rejectedToOutput && !this.continueOnFail()) {
			refuse(itemIndex, check);
		}
		checked.push({
			itemIndex,
			check,
			key: 'payload' in check ? storedKeyOf(check.payload) : undefined,
		});
	}

	const keys = [...new Set(checked.flatMap(({ key }) => (key === undefined ? [] : [key])))];
	const { unseen, store } = await unseenDeliveries(this, keys, now);
	this.logger.debug(
		`Lead Conversations: ${unseen.size} of ${checked.length} deliveries new (duplicates kept in ${store})`,
	);

	for (const { itemIndex, check, key } of checked) {
		if (!('payload' in check)) {
			refuse(itemIndex, check);
		} else if (key === undefined || !unseen.delete(key)) {
			// Deleting lets only the first of two copies in one execution through.
			refuse(itemIndex, DUPLICATE, check);
		} else {
			verified.push({
				json: outputJson(check.payload, settings.output),
				pairedItem: { item: itemIndex },
			});
		}
	}
	return settings.rejectedToOutput ? [verified, rejected] : [verified];
}
