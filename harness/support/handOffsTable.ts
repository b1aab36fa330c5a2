// The Data Table "Lead hand-offs" of examples/reroute-uncontacted-leads.json, as its sticky note
// tells a person to make it: every column text. One shape for the demo, the bench and the tests.

export const HAND_OFFS_TABLE = 'Lead hand-offs';

export const HAND_OFFS_COLUMN_NAMES = [
	'lead_id',
	'lead_name',
	'phone',
	'outcome',
	'advisor',
	'missed_by',
	'waiting_since',
] as const;

/** The columns as the in-memory Data Tables take them: name → type. */
export const HAND_OFFS_COLUMNS: Record<string, 'string'> = Object.fromEntries(
	HAND_OFFS_COLUMN_NAMES.map((name) => [name, 'string' as const]),
);

/** The `outcome` values the example writes, one spelling each: the dashboard filters on them. */
export const HAND_OFF_OUTCOMES = {
	passedOn: 'passed_on',
	escalated: 'escalated',
	notPassedOn: 'not_passed_on',
} as const;
