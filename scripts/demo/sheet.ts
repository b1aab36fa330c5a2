// The synced sheet read back as a person would open it (a CSV file: header row, then one row per
// lead, every cell text) and held against the service, cell by cell.

import { readFileSync } from 'fs';

import { FLAT_LEAD_COLUMNS } from '../../nodes/shared/flatLead';

export type SheetRow = Record<string, string>;

/** The columns of a lead as the sheet holds them: the poll trigger's Flat output. */
export const SHEET_COLUMNS = FLAT_LEAD_COLUMNS;

/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
	const records: string[][] = [];
	let record: string[] = [];
	let field = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (quoted) {
			if (char === '"' && text[i + 1] === '"') {
				field += '"';
				i++;
			} else if (char === '"') quoted = false;
			else field += char;
		} else if (char === '"') quoted = true;
		else if (char === ',') {
			record.push(field);
			field = '';
		} else if (char === '\n' || char === '\r') {
			if (char === '\r' && text[i + 1] === '\n') i++;
			record.push(field);
			records.push(record);
			record = [];
			field = '';
		} else field += char;
	}
	if (field !== '' || record.length > 0) records.push([...record, field]);
	return records;
}

/** The sheet's rows, each keyed by its header cell. */
export function readSheet(path: string): SheetRow[] {
	// A byte order mark first, as spreadsheet programs write and read it.
	const [header, ...rows] = parseCsv(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''));
	return rows.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
}

/** What a cell shows for a value: empty for none, the number or text as written. */
export const cellText = (value: unknown): string =>
	value === null || value === undefined ? '' : String(value);

export interface SheetAgainstService {
	rows: number;
	leads: number;
	cells: number;
	/** "lead_x.status: sheet 'new', service 'qualified'" for each cell that differs. */
	differingCells: string[];
	/** Leads with no row, and rows of no lead. */
	missing: string[];
	extra: string[];
	duplicated: string[];
}

/** The sheet against the leads the service lists, every column of every lead. */
export function compareWithService(
	rows: SheetRow[],
	leads: Array<Record<string, unknown>>,
): SheetAgainstService {
	const rowsById = new Map<string, SheetRow[]>();
	for (const row of rows) rowsById.set(row.id, [...(rowsById.get(row.id) ?? []), row]);
	const result: SheetAgainstService = {
		rows: rows.length,
		leads: leads.length,
		cells: leads.length * SHEET_COLUMNS.length,
		differingCells: [],
		missing: [],
		extra: [],
		duplicated: [],
	};
	for (const lead of leads) {
		const id = String(lead.id);
		const found = rowsById.get(id);
		rowsById.delete(id);
		if (!found) {
			result.missing.push(id);
			continue;
		}
		if (found.length > 1) result.duplicated.push(id);
		for (const column of SHEET_COLUMNS) {
			const want = cellText(lead[column]);
			const have = found[0][column];
			if (have !== want) {
				result.differingCells.push(`${id}.${column}: sheet '${have}', service '${want}'`);
			}
		}
	}
	result.extra.push(...rowsById.keys());
	return result;
}

export interface RowChange {
	id: string;
	/** Null for a row the sheet did not have before. */
	changes: Array<{ column: string; before: string; after: string }> | null;
}

/** Rows added or changed between two readings of the sheet, in the later sheet's order. */
export function changedRows(before: SheetRow[], after: SheetRow[]): RowChange[] {
	const earlier = new Map(before.map((row) => [row.id, row]));
	const changed: RowChange[] = [];
	for (const row of after) {
		const old = earlier.get(row.id);
		if (!old) {
			changed.push({ id: row.id, changes: null });
			continue;
		}
		const changes = SHEET_COLUMNS.filter((column) => old[column] !== row[column]).map((column) => ({
			column,
			before: old[column],
			after: row[column],
		}));
		if (changes.length > 0) changed.push({ id: row.id, changes });
	}
	return changed;
}

/** Every lead as GET /leads lists it, all pages. */
export async function leadsAtService(
	baseUrl: string,
	apiKey: string,
): Promise<Array<Record<string, unknown>>> {
	const leads: Array<Record<string, unknown>> = [];
	let cursor: string | undefined;
	do {
		const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
		const res = await fetch(`${baseUrl}/leads?${query}`, { headers: { 'X-API-Key': apiKey } });
		if (!res.ok) throw new Error(`GET /leads: ${res.status}`);
		const body = (await res.json()) as {
			data: Array<Record<string, unknown>>;
			pagination: { next_cursor: string | null };
		};
		leads.push(...body.data);
		cursor = body.pagination.next_cursor ?? undefined;
	} while (cursor);
	return leads;
}
