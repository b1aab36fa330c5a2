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

/** Optional fields of a lead that can be cleared by sending them as null. */
const CLEARABLE_FIELDS = [
	{ name: 'Notes', value: 'notes', field: 'notes' },
	{ name: 'Vehicle Interest', value: 'vehicle_interest', field: 'vehicleInterest' },
] as const;

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
				description: 'User ID of the sales advisor to assign. To remove the advisor, use Unassign.',
			},
			{
				displayName: 'Fields to Clear',
				name: 'clearFields',
				type: 'multiOptions',
				default: [],
				options: CLEARABLE_FIELDS.map(({ name, value }) => ({ name, value })),
				description: 'Optional fields to empty (sent as null)',
			},
			{
				displayName: 'Notes',
				name: 'notes',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'Internal notes for the team; replaces the existing notes',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'in_conversation',
				options: optionsOf(LEAD_STATUSES),
			},
			{
				displayName: 'Unassign',
				name: 'unassign',
				type: 'boolean',
				default: true,
				description: 'Whether to remove the assigned sales advisor (sends assigned_to as null)',
			},
			{
				displayName: 'Vehicle Interest',
				name: 'vehicleInterest',
				type: 'string',
				default: '',
				placeholder: 'e.g. Toyota Hilux 2024',
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
	const assignedTo = trimmedText(fields.assignedTo);
	const unassign = fields.unassign === true;

	if (isGiven(fields.status)) body.status = fields.status;
	if (unassign && assignedTo !== undefined) {
		return {
			body,
			problem: 'Assigned To and Unassign are both set: choose one',
		};
	}
	if (unassign) body.assigned_to = null;
	else if (assignedTo !== undefined) body.assigned_to = assignedTo;
	else if (isGiven(fields.assignedTo)) {
		return { body, problem: 'Assigned To is empty: enter a user ID, or use Unassign instead' };
	}

	for (const { name, value, field } of CLEARABLE_FIELDS) {
		const given = trimmedText(fields[field]);
		if (cleared.has(value) && given !== undefined) {
			return { body, problem: `${name} is both set and in Fields to Clear: choose one` };
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
