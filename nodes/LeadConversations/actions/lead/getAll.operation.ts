import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	LEAD_CHANNELS,
	LEAD_INTENTS,
	LEAD_STATUSES,
	SCORE_MAX,
	SCORE_MIN,
} from '../../../shared/constants';
import { iterateListPages } from '../../../shared/transport';
import {
	checkBoolean,
	checkDateRange,
	checkIsoDateTime,
	checkOneOf,
	checkScore,
	checkScoreRange,
	firstProblem,
	ifGiven,
} from '../../../shared/validation';
import {
	FLAT_COLUMNS_DETAIL,
	FLAT_OUTPUT_DESCRIPTION,
	flattenLead,
} from '../../../shared/flatLead';
import { MarkTracker, seenBefore } from '../../../shared/leadMark';
import {
	createdAfterFor,
	querySignature,
	readMark,
	writeMark,
} from '../../helpers/newLeadsSinceLastRun';
import {
	collectionParameter,
	dateText,
	givenOnly,
	readListOptions,
	throwIfInvalid,
} from '../input';
import { optionsOf } from '../../../shared/labels';
import { compactLead, isToolNode } from '../tool';
import { listOptionsForNodeOrTool } from '../tool.descriptions';
import { optionsCollection } from '../../../shared/descriptions';

const OUTPUT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Compact',
		value: 'compact',
		description:
			'ID, name, status, intent, score, channel, advisor, vehicle interest and creation date only. The default when the node is an AI Agent tool.',
	},
	{
		name: 'Flat',
		value: 'flat',
		description: FLAT_OUTPUT_DESCRIPTION,
	},
	{
		name: 'Raw',
		value: 'raw',
		description: 'Each lead exactly as the service returns it',
	},
];
const OUTPUTS = OUTPUT_OPTIONS.map(({ value }) => String(value));

const properties: INodeProperties[] = [
	...listOptionsForNodeOrTool('leads'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Channel',
				name: 'channel',
				type: 'options',
				default: 'chat_app',
				options: optionsOf(LEAD_CHANNELS),
				description: 'Only leads that came from this channel',
			},
			{
				displayName: 'Created After',
				name: 'createdAfter',
				type: 'dateTime',
				default: '',
				description: 'Only leads created on or after this date-time (ISO 8601)',
			},
			{
				displayName: 'Created Before',
				name: 'createdBefore',
				type: 'dateTime',
				default: '',
				description: 'Only leads created on or before this date-time (ISO 8601)',
			},
			{
				displayName: 'Intent',
				name: 'intent',
				type: 'options',
				default: 'purchase_30_days',
				options: optionsOf(LEAD_INTENTS),
				description: 'Only leads with this purchase intent',
			},
			// Named so that n8n's alphabetical order puts the lower bound first.
			{
				displayName: 'Score At Least',
				name: 'scoreMin',
				type: 'number',
				typeOptions: { minValue: SCORE_MIN, maxValue: SCORE_MAX, numberPrecision: 0 },
				default: SCORE_MIN,
				description: 'Only leads with a score greater than or equal to this (0 to 100)',
			},
			{
				displayName: 'Score At Most',
				name: 'scoreMax',
				type: 'number',
				typeOptions: { minValue: SCORE_MIN, maxValue: SCORE_MAX, numberPrecision: 0 },
				default: SCORE_MAX,
				description: 'Only leads with a score less than or equal to this (0 to 100)',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'new',
				options: optionsOf(LEAD_STATUSES),
				description: 'Only leads in this status',
			},
		],
	},
	optionsCollection([
		{
			displayName: 'Only New Since Last Run',
			name: 'onlyNewSinceLastRun',
			type: 'boolean',
			default: true,
			// Offered with Return All only: with a limit, leads beyond it would be skipped for good.
			displayOptions: { show: { '/returnAll': [true] } },
			description:
				'Whether to return only the leads created since this node last ran in the active workflow, so a scheduled workflow gets each lead once. Test runs in the editor always start from the beginning. With separate worker processes, use the New Lead event of the Lead Conversations Polling Trigger instead (<a href="https://github.com/lead-conversations/n8n-nodes-lead-conversations#only-new-since-last-run">more</a>).',
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'raw',
			description: FLAT_COLUMNS_DETAIL,
			options: OUTPUT_OPTIONS,
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['getAll'] } },
	properties,
);

/** The filters as the service names them, checked against the specification. */
function leadFilters(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = collectionParameter.call(this, 'filters', itemIndex);
	const createdAfter = dateText(filters.createdAfter);
	const createdBefore = dateText(filters.createdBefore);
	const scoreMin = (filters.scoreMin ?? undefined) as number | undefined;
	const scoreMax = (filters.scoreMax ?? undefined) as number | undefined;

	throwIfInvalid.call(
		this,
		itemIndex,
		firstProblem(
			ifGiven(checkOneOf, 'Channel', filters.channel, LEAD_CHANNELS),
			ifGiven(checkIsoDateTime, 'Created After', createdAfter),
			ifGiven(checkIsoDateTime, 'Created Before', createdBefore),
			checkDateRange('Created After', createdAfter, 'Created Before', createdBefore),
			ifGiven(checkOneOf, 'Intent', filters.intent, LEAD_INTENTS),
			ifGiven(checkScore, 'Score At Least', scoreMin),
			ifGiven(checkScore, 'Score At Most', scoreMax),
			checkScoreRange('Score At Least', scoreMin, 'Score At Most', scoreMax),
			ifGiven(checkOneOf, 'Status', filters.status, LEAD_STATUSES),
		),
	);

	return givenOnly({
		status: filters.status,
		intent: filters.intent,
		channel: filters.channel,
		score_min: scoreMin,
		score_max: scoreMax,
		created_after: createdAfter,
		created_before: createdBefore,
	});
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const list = readListOptions.call(this, itemIndex);
	const query = leadFilters.call(this, itemIndex);
	const options = collectionParameter.call(this, 'options', itemIndex);
	throwIfInvalid.call(
		this,
		itemIndex,
		firstProblem(
			ifGiven(checkBoolean, 'Only New Since Last Run', options.onlyNewSinceLastRun),
			ifGiven(checkOneOf, 'Output', options.output, OUTPUTS),
		),
	);
	// As an AI Agent tool a lead is reduced to what a model needs, unless the workflow says otherwise.
	const output = options.output ?? (isToolNode(this) ? 'compact' : 'raw');
	const shape = { flat: flattenLead, compact: compactLead }[output as string];
	const onlyNew = options.onlyNewSinceLastRun === true;

	if (onlyNew && !list.returnAll) {
		// With a limit, leads between the returned ones and the previous run would be skipped.
		throwIfInvalid.call(
			this,
			itemIndex,
			'Only New Since Last Run needs Return All to be on, so that no lead is skipped: turn on Return All, or remove the option',
		);
	}

	const staticData = onlyNew ? this.getWorkflowStaticData('node') : undefined;
	const signature = querySignature(query);
	const mark = staticData ? readMark(staticData, signature) : undefined;
	const tracker = new MarkTracker();
	if (onlyNew) {
		const createdAfter = createdAfterFor(query.created_after as string | undefined, mark);
		if (createdAfter !== undefined) query.created_after = createdAfter;
	}

	const leads: IDataObject[] = [];
	const pages = iterateListPages<IDataObject>;
	for await (const page of pages.call(this, '/leads', query, { ...list, itemIndex })) {
		for (const lead of page) {
			if (onlyNew) {
				if (seenBefore(lead, mark)) continue;
				tracker.observe(lead);
			}
			leads.push(shape ? shape(lead) : lead);
		}
	}

	// Reached only when every page was read: a failed run leaves the mark where it was.
	if (staticData) {
		const next = tracker.next(mark);
		if (next) writeMark(staticData, signature, next);
	}
	return leads;
}
