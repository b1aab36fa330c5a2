// The n8n Data Table the assignment example reads ("Advisors roster"), made through n8n's public
// API as a person would make it in the editor's table view.

interface PublicApi {
	request(
		method: string,
		path: string,
		body?: unknown,
	): Promise<{ status: number; json: any; text: string }>;
}

export interface RosterRow {
	user_id: string;
	weight?: number | null;
	away?: boolean;
	/** Working hours in the opening-hours notation, e.g. `Mon-Fri 09:00-17:00`. */
	hours?: string;
	time_zone?: string;
	capacity?: number;
}

/** The shift and capacity columns, made only when some row uses them. */
const OPTIONAL_COLUMNS = [
	{ name: 'hours', type: 'string' },
	{ name: 'time_zone', type: 'string' },
	{ name: 'capacity', type: 'number' },
] as const;

export const ROSTER_TABLE = 'Advisors roster';

/** Creates the table with its rows; returns the table's ID. */
export async function createAdvisorsRoster(
	api: PublicApi,
	rows: RosterRow[],
	name = ROSTER_TABLE,
): Promise<string> {
	const table = await api.request('POST', '/data-tables', {
		name,
		columns: [
			{ name: 'user_id', type: 'string' },
			{ name: 'weight', type: 'number' },
			{ name: 'away', type: 'boolean' },
			...OPTIONAL_COLUMNS.filter((column) => rows.some((row) => row[column.name] !== undefined)),
		],
	});
	if (table.status !== 201) throw new Error(`POST /data-tables: ${table.status} ${table.text}`);
	const id = String(table.json.id);
	const inserted = await api.request('POST', `/data-tables/${id}/rows`, {
		data: rows.map((row) => ({ weight: 1, away: false, ...row })),
	});
	if (inserted.status >= 300) {
		throw new Error(`POST /data-tables/${id}/rows: ${inserted.status} ${inserted.text}`);
	}
	return id;
}
