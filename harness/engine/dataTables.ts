// n8n Data Tables for the engine: n8n's cli hands its Data Table node a proxy per table (the
// `data-table` module of IWorkflowExecuteAdditionalData); this is that proxy over tables kept in
// memory, so n8n's own Data Table node runs in the harness as it does in n8n, per item and all.
// Reads, inserts and upserts matched on equal columns are served (what the examples do); every
// read is counted, so a test can tell how many times a workflow read a table.

import {
	UserError,
	type DataTable,
	type DataTableColumn,
	type DataTableColumnType,
	type DataTableInsertRowsReturnType,
	type DataTableProxyProvider,
	type DataTableRow,
	type DataTableRowReturn,
	type IDataTableProjectAggregateService,
	type IDataTableProjectService,
	type ListDataTableOptions,
	type ListDataTableRowsOptions,
	type UpsertDataTableRowOptions,
} from 'n8n-workflow';

interface StoredTable {
	table: DataTable;
	rows: DataTableRowReturn[];
}

const PROJECT_ID = 'harness-project';

function unsupported(what: string): never {
	throw new UserError(`${what} is not available in the harness's Data Tables (reads only)`);
}

export class InMemoryDataTables implements DataTableProxyProvider {
	private readonly tables = new Map<string, StoredTable>();
	/** Row reads (one per `getManyRowsAndCount`), per table name. */
	readonly reads = new Map<string, number>();

	/** A table with these columns and rows; `id`, `createdAt` and `updatedAt` added as n8n does. */
	create(name: string, columns: Record<string, DataTableColumnType>, rows: DataTableRow[]): string {
		const id = `dt${this.tables.size + 1}`;
		const now = new Date('2026-11-20T10:00:00.000Z');
		const table: DataTable = {
			id,
			name,
			columns: Object.entries(columns).map(
				([column, type], index): DataTableColumn => ({
					id: `${id}c${index}`,
					name: column,
					type,
					index,
					dataTableId: id,
				}),
			),
			createdAt: now,
			updatedAt: now,
			projectId: PROJECT_ID,
		};
		const stored = rows.map((row, index) => ({
			...row,
			id: index + 1,
			createdAt: now,
			updatedAt: now,
		}));
		this.tables.set(id, { table, rows: stored });
		return id;
	}

	readsOf(name: string): number {
		return this.reads.get(name) ?? 0;
	}

	/** The rows of the table with this name, as stored (inserted ones included). */
	rowsOf(name: string): DataTableRowReturn[] {
		const stored = [...this.tables.values()].find((entry) => entry.table.name === name);
		return stored ? stored.rows.map((row) => ({ ...row })) : [];
	}

	async getDataTableAggregateProxy(): Promise<IDataTableProjectAggregateService> {
		const tables = [...this.tables.values()].map((stored) => stored.table);
		return {
			getProjectId: () => PROJECT_ID,
			getManyAndCount: async (options: ListDataTableOptions) => {
				// n8n matches a name case-insensitively (the node sends it lower-cased).
				const name = options.filter?.name;
				const data = tables.filter(
					(table) => name === undefined || table.name.toLowerCase() === String(name).toLowerCase(),
				);
				return {
					count: data.length,
					data: data.slice(options.skip ?? 0, (options.skip ?? 0) + (options.take ?? data.length)),
				};
			},
			createDataTable: async () => unsupported('Creating a table'),
			deleteDataTableAll: async () => unsupported('Deleting tables'),
		};
	}

	async getDataTableProxy(
		_workflow: unknown,
		_node: unknown,
		dataTableId: string,
	): Promise<IDataTableProjectService> {
		const stored = this.tables.get(dataTableId);
		if (!stored) throw new UserError(`No data table with ID ${dataTableId}`);
		const { table } = stored;
		const addRow = (row: DataTableRow): DataTableRowReturn => {
			const now = new Date();
			const added = {
				...Object.fromEntries(table.columns.map((column) => [column.name, null])),
				...row,
				id: stored.rows.length + 1,
				createdAt: now,
				updatedAt: now,
			} as DataTableRowReturn;
			stored.rows.push(added);
			return added;
		};
		return {
			getColumns: async () => table.columns,
			getManyRowsAndCount: async (options: Partial<ListDataTableRowsOptions>) => {
				if (options.filter && options.filter.filters.length > 0) unsupported('Filtering rows');
				this.reads.set(table.name, this.readsOf(table.name) + 1);
				const rows = [...stored.rows];
				if (options.sortBy) {
					const [column, direction] = options.sortBy;
					const sign = direction === 'DESC' ? -1 : 1;
					rows.sort((a, b) =>
						a[column]! > b[column]! ? sign : a[column]! < b[column]! ? -sign : 0,
					);
				}
				const skip = options.skip ?? 0;
				const data = rows
					.slice(skip, skip + (options.take ?? rows.length))
					.map((row) => ({ ...row }));
				return { count: rows.length, data };
			},
			updateDataTable: async () => unsupported('Renaming a table'),
			deleteDataTable: async () => unsupported('Deleting a table'),
			addColumn: async () => unsupported('Adding a column'),
			moveColumn: async () => unsupported('Moving a column'),
			deleteColumn: async () => unsupported('Deleting a column'),
			insertRows: (async (rows: DataTableRow[], returnType: DataTableInsertRowsReturnType) => {
				const added = rows.map((row) => addRow(row));
				if (returnType === 'count') return { success: true, insertedRows: added.length };
				if (returnType === 'id') return added.map((row) => ({ id: row.id }));
				return added.map((row) => ({ ...row }));
			}) as IDataTableProjectService['insertRows'],
			updateRows: async () => unsupported('Updating rows'),
			// The rows whose columns equal the filter's values are updated, else one is added.
			upsertRow: async ({ filter, data, dryRun }: UpsertDataTableRowOptions) => {
				if (dryRun) unsupported('A dry run');
				if (filter.filters.some((f) => f.condition !== 'eq'))
					unsupported('Matching other than equal');
				const test = (row: DataTableRowReturn) => (f: (typeof filter.filters)[number]) =>
					row[f.columnName] === f.value;
				const matches = stored.rows.filter((row) =>
					filter.type === 'or' ? filter.filters.some(test(row)) : filter.filters.every(test(row)),
				);
				if (matches.length === 0) return [{ ...addRow(data) }];
				for (const row of matches) Object.assign(row, data, { updatedAt: new Date() });
				return matches.map((row) => ({ ...row }));
			},
			deleteRows: async () => unsupported('Deleting rows'),
			clearRows: async () => unsupported('Clearing rows'),
		};
	}
}
