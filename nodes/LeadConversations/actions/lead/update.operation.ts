import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LEAD_ID_PREFIX, LEAD_STATUSES } from '../../../shared/constants';
import type { Problem } from '../../../shared/validation';
import {
	checkBoolean,
	checkFieldsToUpdate,
	checkIdPrefix,
	checkList,
	checkOneOf,
	checkText,
	firstProblem,
	ifGiven,
	isGiven,
} from '../../../shared/validation';
import { leadLocator } from '../common.descriptions';
import { collectionParameter, locatorValue, trimmedText, throwIfInvalid } from '../input';
import { requestRecord } from '../record';
import { optionsOf } from '../../../shared/labels';

/**
 * Optional fields of a lead that can be cleared by sending them as null. Fields to Clear is the
 * one way to clear any of them, the advisor included.
 */
const CLEARABLE_FIELDS = [
	{ name: 'Assigned To', value: 'assigned_to', field: 'assignedTo' },
	{ name: 'Notes', value: 'notes', field: 'notes' },
	{ name: 'Vehicle Interest', value: 'vehicle_interest', field: 'vehicleInterest' },
] as const;

/** A field and Fields to Clear exclude each other: the field hides once it is to be cleared. */
const unlessCleared = (value: string) => ({ hide: { clearFields: [value] } });

const properties: INodeProperties[] = [
	leadLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Assigned To',
				name: 'assignedTo',
				type: 'string',
				default: '',
				placeholder: 'e.g. user_42',
				description:
					'User ID of the sales advisor to assign. To remove the advisor, choose Assigned To in Fields to Clear.',
				displayOptions: unlessCleared('assigned_to'),
			},
			{
				displayName: 'Fields to Clear',
				name: 'clearFields',
				type: 'multiOptions',
				default: [],
				options: CLEARABLE_FIELDS.map(({ name, value }) => ({ name, value })),
				description:
					'Fields to empty, such as Assigned To to remove the sales advisor. A field chosen here cannot be set at the same time.',
			},
			{
				displayName: 'Notes',
				name: 'notes',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'Internal notes for the team; replaces the existing notes',
				displayOptions: unlessCleared('notes'),
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'in_conversation',
				options: optionsOf(LEAD_STATUSES),
				description:
					"The lead's stage: New, In Conversation, Qualified, Assigned, and finally Closed or Lost",
			},
			// Kept for nodes saved at version 1, which may have it on; newer nodes use Fields to Clear.
			{
				displayName: 'Unassign',
				name: 'unassign',
				type: 'boolean',
				default: true,
				description: 'Whether to remove the assigned sales advisor (sends assigned_to as null)',
				displayOptions: { show: { '@version': [1] } },
			},
			{
				displayName: 'Vehicle Interest',
				name: 'vehicleInterest',
				type: 'string',
				default: '',
				placeholder: 'e.g. Toyota Hilux 2024',
				description: 'The vehicle the lead asks about',
				displayOptions: unlessCleared('vehicle_interest'),
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['update'] } },
	properties,
);

const CLEARABLE_VALUES: readonly string[] = CLEARABLE_FIELDS.map(({ value }) => value);

/** Each field alone, in the order the editor lists them. */
function fieldProblem(fields: IDataObject): Problem {
	return firstProblem(
		ifGiven(checkText, 'Assigned To', fields.assignedTo),
		ifGiven(checkList, 'Fields to Clear', fields.clearFields, (field, entry) =>
			checkOneOf(field, entry, CLEARABLE_VALUES),
		),
		ifGiven(checkText, 'Notes', fields.notes),
		ifGiven(checkOneOf, 'Status', fields.status, LEAD_STATUSES),
		ifGiven(checkBoolean, 'Unassign', fields.unassign),
		ifGiven(checkText, 'Vehicle Interest', fields.vehicleInterest),
	);
}

/** The PATCH body: only what the user set; explicit nulls for what is cleared. */
export function leadUpdateBody(fields: IDataObject): { body: IDataObject; problem: Problem } {
	const body: IDataObject = {};
	const problem = fieldProblem(fields);
	if (problem) return { body, problem };

	const cleared = new Set((fields.clearFields as string[] | null | undefined) ?? []);
	// Nodes saved at version 1 may have the Unassign switch on; it clears the advisor.
	if (fields.unassign === true) {
		if (trimmedText(fields.assignedTo) !== undefined) {
			return { body, problem: 'Assigned To and Unassign are both set: choose one' };
		}
		cleared.add('assigned_to');
	}

	if (isGiven(fields.status)) body.status = fields.status;
	if (
		!cleared.has('assigned_to') &&
		isGiven(fields.assignedTo) &&
		trimmedText(fields.assignedTo) === undefined
	) {
		return {
			body,
			problem:
				'Assigned To is empty: enter a user ID, or choose Assigned To in Fields to Clear to remove the advisor',
		};
	}

	for (const { name, value, field } of CLEARABLE_FIELDS) {
		const given = trimmedText(fields[field]);
		if (cleared.has(value) && given !== undefined) {
			return {
				body,
				problem: `${name} is both set and in Fields to Clear: remove it from one of them`,
			};
		}
		if (cleared.has(value)) body[value] = null;
		else if (given !== undefined) body[value] = given;
	}

	return { body, problem: checkFieldsToUpdate('Update Fields', body) };
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const leadId = locatorValue.call(this, 'lead', itemIndex);
	const { body, problem } = leadUpdateBody(
		collectionParameter.call(this, 'updateFields', itemIndex),
	);
	throwIfInvalid.call(
		this,
		itemIndex,
		firstProblem(checkIdPrefix('Lead', leadId, LEAD_ID_PREFIX), problem),
	);

	const address = { collection: 'leads', label: 'Lead', id: leadId };
	return [await requestRecord.call(this, 'PATCH', address, { itemIndex, body })];
}
