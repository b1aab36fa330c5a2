import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	CONVERSATION_ID_PREFIX,
	MEDIA_MESSAGE_TYPES,
	POSTABLE_MESSAGE_TYPES,
} from '../../../shared/constants';
import { apiRequest } from '../../../shared/transport';
import {
	checkBoolean,
	checkHttpUrl,
	checkIdPrefix,
	checkOneOf,
	checkText,
	firstProblem,
} from '../../../shared/validation';
import { conversationLeadLocator, openConversationLocator } from '../common.descriptions';
import { locatorValue, optionalParameter, bodyAsItem, throwIfInvalid } from '../input';

const properties: INodeProperties[] = [
	conversationLeadLocator,
	openConversationLocator,
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		default: 'text',
		options: [
			{ name: 'Document', value: 'document', description: 'Content is the URL of the document' },
			{ name: 'Image', value: 'image', description: 'Content is the URL of the image' },
			{
				name: 'Text',
				value: 'text',
				description: 'Content is plain text (Markdown is not rendered)',
			},
		],
	},
	{
		displayName: 'Content',
		name: 'content',
		type: 'string',
		required: true,
		typeOptions: { rows: 4 },
		default: '',
		description:
			'Text of the message, or for an image or document a publicly accessible http(s) URL of the file',
	},
	{
		displayName: 'Pause AI',
		name: 'pauseAi',
		type: 'boolean',
		default: false,
		description:
			'Whether to pause the AI agent for this conversation right after sending, so it stops replying until resumed in the dashboard',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['sendMessage'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const conversationId = locatorValue.call(this, 'conversation', itemIndex);
	const type = optionalParameter.call(this, 'type', itemIndex, 'text') as string;
	const givenContent = optionalParameter.call(this, 'content', itemIndex, '');
	const content = String(givenContent);
	const pauseAi = optionalParameter.call(this, 'pauseAi', itemIndex, false) as boolean;

	throwIfInvalid.call(
		this,
		itemIndex,
		firstProblem(
			checkIdPrefix('Conversation', conversationId, CONVERSATION_ID_PREFIX),
			checkOneOf('Type', type, POSTABLE_MESSAGE_TYPES),
			checkText('Content', givenContent),
			content.trim() === '' ? 'Content is empty: a message needs text or a URL' : undefined,
			MEDIA_MESSAGE_TYPES.includes(type) ? checkHttpUrl('Content', content) : undefined,
			checkBoolean('Pause AI', pauseAi),
		),
	);

	// Posted once: a 409 (conversation not open) is a refusal worded here, and a connection lost
	// after sending is never resent, so no message is ever duplicated.
	const { body: message } = await apiRequest.call(
		this,
		'POST',
		`/conversations/${encodeURIComponent(conversationId)}/messages`,
		{
			body: {
				content: MEDIA_MESSAGE_TYPES.includes(type) ? content.trim() : content,
				type,
				pause_ai: pauseAi,
			},
			itemIndex,
			about: `Conversation ${conversationId}`,
			whenStatus: {
				409: {
					summary: `Conversation ${conversationId} is not open, so the message was not sent`,
					hint: 'Only open conversations accept messages. Check the conversation status with Conversation → Get.',
				},
			},
		},
	);
	return [bodyAsItem(message)];
}
