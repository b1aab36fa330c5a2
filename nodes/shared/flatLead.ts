// "Flat" output of a lead (Lead → Get Many, the polling trigger's lead events, the webhook trigger's
// Fetch Current Lead): one row per lead with the same columns in the same order every time, so a
// spreadsheet row lines up whichever path filled it, even when the service adds or omits a field.

import type { IDataObject } from 'n8n-workflow';

export const FLAT_LEAD_COLUMNS = [
	'id',
	'name',
	'phone',
	'email',
	'channel',
	'vehicle_interest',
	'score',
	'intent',
	'status',
	'assigned_to',
	'created_at',
	'updated_at',
	'last_activity_at',
	'organization_id',
] as const;

/** How the Output option of each node describes Flat: short, the dropdown shows two lines. */
export const FLAT_OUTPUT_DESCRIPTION = 'Spreadsheet columns in a fixed order, blank when missing';

/** The detail, for the Output field's own description. */
export const FLAT_COLUMNS_DETAIL =
	'Flat gives the same 14 columns for every lead, in a fixed order from id, name and phone to organization_id; a value the service leaves out is empty.';

function cell(value: unknown): string | number | boolean | null {
	if (value === undefined || value === null) return null;
	if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
		return value;
	}
	// A column holds one value: anything structured is written as JSON text.
	return JSON.stringify(value);
}

/** The lead as spreadsheet columns: fixed order, missing fields as null, nothing else. */
export function flattenLead(lead: IDataObject): IDataObject {
	const row: IDataObject = {};
	for (const column of FLAT_LEAD_COLUMNS) row[column] = cell(lead[column]);
	return row;
}
