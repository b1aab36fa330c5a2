import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { AGENT_LANGUAGES, AGENT_SETTABLE_STATUSES, AGENT_TONES } from '../../../shared/constants';
import type { Problem } from '../../../shared/validation';
import {
	checkFieldsToUpdate,
	checkList,
	checkOneOf,
	checkPlainId,
	checkRequiredText,
	checkText,
	checkWholeNumber,
	firstProblem,
	ifGiven,
	isGiven,
} from '../../../shared/validation';
import { agentLocator } from '../common.descriptions';
import { collectionParameter, locatorValue, throwIfInvalid } from '../input';
import { requestRecord } from '../record';
import { optionsOf } from '../../../shared/labels';

const properties: INodeProperties[] = [
	agentLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Follow-Up Interval (Days)',
				name: 'followUpIntervalDays',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 2,
				description: 'Days between follow-up messages',
			},
			{
				displayName: 'Handoff Triggers',
				name: 'handoffTriggers',
				type: 'string',
				typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Trigger' },
				// What n8n puts in each new row: a blank text, skipped when the node runs.
				default: '',
				placeholder: 'e.g. price negotiation',
				description:
					'Topics or situations that make the agent hand the conversation to a human seller. Replaces the whole list. Blank rows are skipped; to clear the list, delete every row.',
			},
			{
				displayName: 'Language',
				name: 'language',
				type: 'options',
				default: 'es-AR',
				options: optionsOf(AGENT_LANGUAGES),
				description:
					'Language of the agent. For an active agent it applies from the next new conversation.',
			},
			{
				displayName: 'Max Follow-Ups',
				name: 'maxFollowUps',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 3,
				description: 'Maximum number of follow-up messages per lead',
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'Display name of the agent',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'active',
				options: optionsOf(AGENT_SETTABLE_STATUSES),
				description:
					'Active agents handle live conversations; inactive ones do not answer new messages',
			},
			{
				displayName: 'Tone',
				name: 'tone',
				type: 'options',
				default: 'friendly',
				options: optionsOf(AGENT_TONES),
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['agent'], operation: ['update'] } },
	properties,
);

/**
 * A row left blank: empty text, or the `[]` that rows added before the field's default was a
 * text were stored as. Skipped, never sent and never refused.
 */
function isBlankRow(entry: unknown): boolean {
	return (
		entry === null ||
		entry === undefined ||
		(Array.isArray(entry) && entry.length === 0) ||
		(typeof entry === 'string' && entry.trim() === '')
	);
}

/** Entries of Handoff Triggers; an expression may also give comma-separated text. */
function triggerList(value: unknown): string[] {
	const entries = Array.isArray(value) ? value : String(value).split(',');
	return entries
		.filter((entry) => !isBlankRow(entry))
		.map((entry) => String(entry).trim())
		.filter((entry) => entry !== '');
}

/** A list of texts, or one text of comma-separated entries. */
function checkTriggers(field: string, value: unknown): Problem {
	if (typeof value === 'string') return undefined;
	return checkList(field, value, (entry, given) =>
		isBlankRow(given) ? undefined : checkText(entry, given),
	);
}

/**
 * Rows given, all blank: the user added the field or a row and typed nothing, which changes
 * nothing. No rows at all is the way to clear the list (the hint says so).
 */
function onlyBlankRows(value: unknown): boolean {
	return Array.isArray(value) && value.length > 0 && value.every(isBlankRow);
}

const BLANK_TRIGGERS_ONLY =
	'Update Fields is empty: the Handoff Triggers rows are blank, and blank rows are skipped. Type a trigger into a row, or remove every row to clear the list';

/** Each field alone, in the order the editor lists them. */
function fieldProblem(fields: IDataObject): Problem {
	return firstProblem(
		ifGiven(checkWholeNumber, 'Follow-Up Interval (Days)', fields.followUpIntervalDays, 0),
		ifGiven(checkTriggers, 'Handoff Triggers', fields.handoffTriggers),
		ifGiven(checkOneOf, 'Language', fields.language, AGENT_LANGUAGES),
		ifGiven(checkWholeNumber, 'Max Follow-Ups', fields.maxFollowUps, 0),
		ifGiven(checkRequiredText, 'Name', fields.name),
		ifGiven(checkOneOf, 'Status', fields.status, AGENT_SETTABLE_STATUSES),
		ifGiven(checkOneOf, 'Tone', fields.tone, AGENT_TONES),
	);
}

/** The PATCH body, with `configuration` and `follow_up_cadence` nested as the service expects. */
export function agentUpdateBody(fields: IDataObject): { body: IDataObject; problem: Problem } {
	const body: IDataObject = {};
	const configuration: IDataObject = {};
	const cadence: IDataObject = {};

	const problem = fieldProblem(fields);
	if (problem) return { body, problem };

	if (isGiven(fields.name)) body.name = String(fields.name).trim();
	if (isGiven(fields.status)) body.status = fields.status;
	if (isGiven(fields.language)) body.language = fields.language;
	if (isGiven(fields.tone)) configuration.tone = fields.tone;
	if (isGiven(fields.handoffTriggers) && !onlyBlankRows(fields.handoffTriggers)) {
		configuration.handoff_triggers = triggerList(fields.handoffTriggers);
	}
	if (isGiven(fields.maxFollowUps)) cadence.max_follow_ups = fields.maxFollowUps;
	if (isGiven(fields.followUpIntervalDays)) cadence.interval_days = fields.followUpIntervalDays;
	if (Object.keys(cadence).length > 0) configuration.follow_up_cadence = cadence;
	if (Object.keys(configuration).length > 0) body.configuration = configuration;

	const empty = checkFieldsToUpdate('Update Fields', body);
	// Say why it is empty when the only field given was blank rows, which are skipped.
	const blankRowsOnly = isGiven(fields.handoffTriggers) && onlyBlankRows(fields.handoffTriggers);
	return { body, problem: empty && blankRowsOnly ? BLANK_TRIGGERS_ONLY : empty };
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const agentId = locatorValue.call(this, 'agent', itemIndex);
	const { body, problem } = agentUpdateBody(
		collectionParameter.call(this, 'updateFields', itemIndex),
	);
	throwIfInvalid.call(this, itemIndex, firstProblem(checkPlainId('Agent', agentId), problem));

	const address = { collection: 'agents', label: 'Agent', id: agentId };
	return [await requestRecord.call(this, 'PATCH', address, { itemIndex, body })];
}
