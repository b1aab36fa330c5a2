// n8n Data Tables through the REST API the editor's table view uses, which n8n 1.x and 2.x both
// serve (n8n 1.x has no public API for them).

import type { N8nSession } from './n8n-server';

export interface DataTableColumn {
	name: string;
	type: 'string' | 'number' | 'boolean' | 'date';
}

async function personalProject(session: N8nSession): Promise<string> {
	const res = await session.request('GET', '/projects/personal');
	if (res.status !== 200) throw new Error(`GET /rest/projects/personal: ${res.status} ${res.text}`);
	return String(res.json.data.id);
}

/** Makes a table in the owner's project, with its rows; returns the table's ID. */
export async function createDataTable(
	session: N8nSession,
	name: string,
	columns: DataTableColumn[],
	rows: Array<Record<string, unknown>> = [],
): Promise<string> {
	const project = await personalProject(session);
	const created = await session.request('POST', `/projects/${project}/data-tables`, {
		name,
		columns,
	});
	if (created.status !== 200)
		throw new Error(`Create table ${name}: ${created.status} ${created.text}`);
	const id = String(created.json.data.id);
	if (rows.length > 0) {
		const inserted = await session.request(
			'POST',
			`/projects/${project}/data-tables/${id}/insert`,
			{
				data: rows,
				returnType: 'count',
			},
		);
		if (inserted.status !== 200)
			throw new Error(`Insert into ${name}: ${inserted.status} ${inserted.text}`);
	}
	return id;
}

/** Every row of a table, page by page until the count the API reports. */
export async function readDataTable(session: N8nSession, tableId: string): Promise<any[]> {
	const project = await personalProject(session);
	const rows: any[] = [];
	for (;;) {
		const res = await session.request(
			'GET',
			`/projects/${project}/data-tables/${tableId}/rows?take=50&skip=${rows.length}`,
		);
		if (res.status !== 200) throw new Error(`Read table ${tableId}: ${res.status} ${res.text}`);
		const { count, data } = res.json.data as { count: number; data: any[] };
		rows.push(...data);
		if (data.length === 0 || rows.length >= count) return rows;
	}
}
