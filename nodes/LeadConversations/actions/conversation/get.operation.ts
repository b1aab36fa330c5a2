import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { CONVERSATION_ID_PREFIX } from '../../../shared/constants';
import { checkBoolean, checkIdPrefix, firstProblem, ifGiven } from '../../../shared/validation';
import { conversationToMessageItems } from '../../helpers/messageItems';
import { conversationLeadLocator, conversationLocator } from '../common.descriptions';
import { collectionParameter, locatorValue, throwIfInvalid } from '../input';
import { requestRecord } from '../record';
import { optionsCollection } from '../../../shared/descriptions';

const properties: INodeProperties[] = [
	conversationLeadLocator,
	conversationLocator,
	optionsCollection([
		{
			displayName: 'One Item per Message',
			name: 'splitMessages',
			type: 'boolean',
			default: true,
			description:
				'Whether to output one item per message (each naming its conversation) instead of one item for the conversation. For a phone call, each speaker line of the transcript becomes an item.',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const conversationId = locatorValue.call(this, 'conversation', itemIndex);
	const options = collectionParameter.call(this, 'options', itemIndex);
	throwIfInvalid.call(
		this,
		itemIndex,
		firstProblem(
			checkIdPrefix('Conversation', conversationId, CONVERSATION_ID_PREFIX),
			ifGiven(checkBoolean, 'One Item per Message', options.splitMessages),
		),
	);

	const address = { collection: 'conversations', label: 'Conversation', id: conversationId };
	const conversation = await requestRecord.call(this, 'GET', address, { itemIndex });
	return options.splitMessages === true ? conversationToMessageItems(conversation) : [conversation];
}
