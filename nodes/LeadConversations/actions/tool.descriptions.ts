// What an AI model is told about the node when it is attached to n8n's AI Agent as a tool (the
// "Lead Conversations Tool" variant n8n makes from `usableAsTool`). These properties show only in
// that variant (`@tool`); the regular node never sees them.

import type { INodeProperties } from 'n8n-workflow';

import {
	AGENT_LANGUAGES,
	AGENT_SETTABLE_STATUSES,
	AGENT_STATUSES,
	AGENT_TONES,
	CONVERSATION_CHANNELS,
	CONVERSATION_STATUSES,
	LEAD_CHANNELS,
	LEAD_INTENTS,
	LEAD_STATUSES,
	POSTABLE_MESSAGE_TYPES,
} from '../../shared/constants';
import { returnAllOrLimit } from './common.descriptions';

/** How many records Get Many returns as a tool unless the workflow sets another limit. */
export const TOOL_LIST_LIMIT = 10;

/** The fields of a lead a tool's Get Many returns by default: enough to answer and act on. */
export const COMPACT_LEAD_FIELDS = [
	'id',
	'name',
	'status',
	'intent',
	'score',
	'channel',
	'assigned_to',
	'vehicle_interest',
	'created_at',
] as const;

const list = (values: readonly string[]) => values.join(', ');

const LEAD_ID = 'A lead ID looks like lead_8f2k1m9x';
const CONVERSATION_ID = 'A conversation ID looks like conv_3h7d9q2w';
const ERRORS =
	'A wrong value is refused before anything is sent, with the field and the allowed values; correct it and call again.';

const TOOL_DESCRIPTIONS: Record<string, Record<string, string>> = {
	lead: {
		assign: `Assign one lead to a sales advisor from the roster set in the workflow. ${LEAD_ID}. A lead that already has an advisor keeps them (unless the workflow allows reassigning). Returns the lead with assigned_to and an assignment object: advisor, leftAsItWas (true when nothing changed) and reason. ${ERRORS}`,
		create: `Create a sales lead of the dealership. Needs the person's name and phone in E.164 form (e.g. +5491155550123); optional email, channel (${list(LEAD_CHANNELS)}), vehicle interest and notes. Returns the new lead with its ID (lead_…). ${ERRORS}`,
		get: `Get one lead by its ID. ${LEAD_ID}. Returns name, phone, status, intent, score (0-100), channel and assigned_to (the advisor's user ID, null when no advisor is assigned). ${ERRORS}`,
		getAll: `List the dealership's leads, filtered by the values this tool asks for. Status is one of ${list(LEAD_STATUSES)}; intent one of ${list(LEAD_INTENTS)}; channel one of ${list(LEAD_CHANNELS)}; score 0-100; dates ISO 8601. Returns at most Limit leads (${TOOL_LIST_LIMIT} unless the workflow sets another), each with ${list(COMPACT_LEAD_FIELDS)}; assigned_to null means no advisor yet. An empty text for a filter means "any". ${ERRORS}`,
		update: `Update one lead. ${LEAD_ID}. Changes only the fields this tool asks for; an empty text leaves a field as it is. Status is one of ${list(LEAD_STATUSES)}; assigned_to is an advisor's user ID (e.g. user_42). Returns the updated lead. ${ERRORS}`,
	},
	conversation: {
		get: `Get one conversation by its ID with its AI summary and messages. ${CONVERSATION_ID}. ${ERRORS}`,
		getAll: `List conversations, optionally of one lead (lead_…), by channel (${list(CONVERSATION_CHANNELS)}) or status (${list(CONVERSATION_STATUSES)}). Returns at most Limit conversations (${TOOL_LIST_LIMIT} unless the workflow sets another). ${ERRORS}`,
		sendMessage: `Send a message as a human advisor into an open conversation, for example to take over from the AI. ${CONVERSATION_ID}. Type is one of ${list(POSTABLE_MESSAGE_TYPES)}; for image or document the content is an http(s) URL. A conversation that is not open refuses the message, and the result says so. Returns the message sent. ${ERRORS}`,
	},
	agent: {
		get: `Get one AI agent by its ID with its configuration (tone, handoff triggers, follow-up cadence). ${ERRORS}`,
		getAll: `List the dealership's AI agents, optionally by status (${list(AGENT_STATUSES)}). Returns at most Limit agents (${TOOL_LIST_LIMIT} unless the workflow sets another). ${ERRORS}`,
		update: `Update one AI agent. Changes only the fields this tool asks for. Status is one of ${list(AGENT_SETTABLE_STATUSES)}; language one of ${list(AGENT_LANGUAGES)}; tone one of ${list(AGENT_TONES)}. Returns the updated agent. ${ERRORS}`,
	},
};

/**
 * The tool's description, one per resource and operation, prefilled and editable. Defining
 * `toolDescription` here keeps n8n from adding its own generic one ("Get many leads in …").
 */
export const toolDescriptionProperties: INodeProperties[] = Object.entries(
	TOOL_DESCRIPTIONS,
).flatMap(([resource, operations]) =>
	Object.entries(operations).map(([operation, text]) => ({
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string' as const,
		typeOptions: { rows: 4 },
		default: text,
		description:
			'What the AI model reads about this tool. Say what it does, what its values look like and what it returns.',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	})),
);

/**
 * Return All / Limit of a Get Many: as a tool, Limit defaults to a small number so a list fits
 * in a model's context; the regular node keeps its usual default.
 */
export function listOptionsForNodeOrTool(noun: string): INodeProperties[] {
	const regular = returnAllOrLimit(noun).map((property) => ({
		...property,
		displayOptions: { show: { ...property.displayOptions?.show, '@tool': [false] } },
	}));
	const tool = returnAllOrLimit(noun).map((property) =>
		property.name === 'limit'
			? {
					...property,
					default: TOOL_LIST_LIMIT,
					hint: `As a tool, at most ${TOOL_LIST_LIMIT} ${noun} unless you set another limit, so the answer fits in the model's context`,
					displayOptions: { show: { ...property.displayOptions?.show, '@tool': [true] } },
				}
			: { ...property, displayOptions: { show: { '@tool': [true] } } },
	);
	return [...regular, ...tool];
}
