import { postHumanMessage } from '../actions';
import {
	CONVERSATION_CHANNELS,
	CONVERSATION_STATUSES,
	POSTABLE_MESSAGE_TYPES,
	type MessageType,
} from '../constants';
import type { CursorFilters } from '../cursor';
import { conversationNotOpen, invalidField, notFound } from '../errors';
import type { ConversationRecord } from '../types';
import {
	has,
	isHttpUrl,
	optionalBoolean,
	optionalEnum,
	parseEnumParam,
	requiredString,
	requireObject,
} from '../validation';
import { conversationListView, conversationView, messageView } from '../views';
import { listRoute } from './pagination';
import { ok, pathRecord, route, type Route, type RouteContext } from './route';

function parseConversationFilters(query: URLSearchParams): CursorFilters {
	const filters: CursorFilters = {};
	const leadId = query.get('lead_id');
	if (leadId !== null) {
		if (leadId.trim() === '') throw invalidField('lead_id', 'must not be empty');
		filters.lead_id = leadId;
	}
	const channel = query.get('channel');
	if (channel !== null) filters.channel = parseEnumParam('channel', channel, CONVERSATION_CHANNELS);
	const status = query.get('status');
	if (status !== null) filters.status = parseEnumParam('status', status, CONVERSATION_STATUSES);
	return filters;
}

function conversationMatcher(
	filters: CursorFilters,
): ((conversation: ConversationRecord) => boolean) | undefined {
	const { lead_id, channel, status } = filters;
	if (lead_id === undefined && channel === undefined && status === undefined) return undefined;
	return (conversation) =>
		(lead_id === undefined || conversation.lead_id === lead_id) &&
		(channel === undefined || conversation.channel === channel) &&
		(status === undefined || conversation.status === status);
}

function findConversation(context: RouteContext): ConversationRecord {
	return pathRecord(
		context,
		(store, orgId, id) => store.conversationOf(orgId, id),
		(id) => notFound(`Conversation ${id} not found`),
	);
}

export const conversationRoutes: Route[] = [
	listRoute({
		resource: 'conversations',
		collectionOf: (org) => org.conversations,
		parseFilters: parseConversationFilters,
		matcher: conversationMatcher,
		withTotal: true,
		view: conversationListView,
	}),
	route('GET', '/conversations/{id}', (context) => ok(conversationView(findConversation(context)))),
	route('POST', '/conversations/{id}/messages', (context) => {
		const conversation = findConversation(context);
		const body = requireObject(context.body);
		const content = requiredString(body, 'content');
		let type: MessageType = 'text';
		if (has(body, 'type') && body.type !== null) {
			type = optionalEnum(body, 'type', POSTABLE_MESSAGE_TYPES) as MessageType;
		}
		if (type !== 'text' && !isHttpUrl(content)) {
			throw invalidField('content', `must be a publicly accessible URL for type ${type}`);
		}
		const pauseAi = optionalBoolean(body, 'pause_ai') ?? false;
		if (conversation.status !== 'open')
			throw conversationNotOpen(conversation.id, conversation.status);
		const message = postHumanMessage(context.core, conversation, {
			content,
			type,
			pause_ai: pauseAi,
		});
		return { status: 201, body: messageView(message) };
	}),
];
