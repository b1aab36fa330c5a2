// Small, faithful copies of the n8n built-in nodes the examples use, so that `npm run demo` runs
// the example workflows through n8n's engine without installing n8n-nodes-base (1,100 more
// packages, about 880 MiB). Each one keeps the built-in's type name, versions, parameter names and
// output shape, and does the same work in the same way for the settings the examples use:
//
// - Schedule Trigger: the item n8n emits when a schedule fires (the demo fires it once).
// - Edit Fields (Set) 3.4, "manual mapping": each assignment is checked and converted with
//   n8n-workflow's own validateFieldType, as the built-in does.
// - Filter 2.2: the conditions are evaluated by n8n's engine (a `filter` parameter read with
//   extractValue), exactly as the built-in does.
// - Convert to File 1.1, "Convert to CSV": the same CSV the built-in writes through SheetJS
//   (UTF-8 BOM, header row of every key in order of appearance, TRUE/FALSE, empty cells for null,
//   quotes only around cells holding a comma, a quote or a line feed, no final line break).
//   The end-to-end suite compares this output byte for byte with real n8n's.
// - Sticky Note: nothing to run.
//
// Anything else these nodes can do in n8n is refused with a clear error rather than imitated.

import { DateTime } from 'luxon';
import {
	NodeConnectionTypes,
	NodeOperationError,
	deepCopy,
	validateFieldType,
	type FieldType,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

function describe(
	name: string,
	displayName: string,
	version: number[],
	rest: Partial<INodeTypeDescription> = {},
): INodeTypeDescription {
	return {
		displayName,
		name,
		group: ['transform'],
		version,
		description: displayName,
		defaults: { name: displayName },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
		...rest,
	};
}

/** n8n-nodes-base.scheduleTrigger: one item describing the moment the schedule fired. */
export class ScheduleTrigger implements INodeType {
	description = describe('scheduleTrigger', 'Schedule Trigger', [1, 1.1, 1.2, 1.3, 1.4], {
		group: ['trigger', 'schedule'],
		inputs: [],
		properties: [
			{
				displayName: 'Trigger Rules',
				name: 'rule',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: { interval: [{ field: 'days' }] },
				options: [
					{
						name: 'interval',
						displayName: 'Trigger Interval',
						values: [
							{ displayName: 'Trigger Interval', name: 'field', type: 'string', default: 'days' },
							{
								displayName: 'Hours Between Triggers',
								name: 'hoursInterval',
								type: 'number',
								default: 1,
							},
							{ displayName: 'Trigger at Hour', name: 'triggerAtHour', type: 'number', default: 0 },
							{
								displayName: 'Trigger at Minute',
								name: 'triggerAtMinute',
								type: 'number',
								default: 0,
							},
						],
					},
				],
			},
		],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			[{ json: scheduleItem(DateTime.now().setZone(this.getTimezone())), pairedItem: { item: 0 } }],
		];
	}
}

function ordinal(day: number): string {
	const suffix =
		day % 10 === 1 && day !== 11
			? 'st'
			: day % 10 === 2 && day !== 12
				? 'nd'
				: day % 10 === 3 && day !== 13
					? 'rd'
					: 'th';
	return `${day}${suffix}`;
}

/** The fields n8n's Schedule Trigger emits (it formats them with moment-timezone). */
export function scheduleItem(now: DateTime): IDataObject {
	const time = `${now.toFormat('h:mm:ss')} ${now.toFormat('a').toLowerCase()}`;
	return {
		timestamp: now.toISO({ includeOffset: true }),
		'Readable date': `${now.toFormat('LLLL')} ${ordinal(now.day)} ${now.toFormat('yyyy')}, ${time}`,
		'Readable time': time,
		'Day of week': now.toFormat('cccc'),
		Year: now.toFormat('yyyy'),
		Month: now.toFormat('LLLL'),
		'Day of month': now.toFormat('dd'),
		Hour: now.toFormat('HH'),
		Minute: now.toFormat('mm'),
		Second: now.toFormat('ss'),
		Timezone: `${now.zoneName} (UTC${now.toFormat('ZZ')})`,
	};
}

interface Assignment {
	name: string;
	value: unknown;
	type: string;
}

/** Sets `value` at a dot-notation path, as the built-in does with its default Dot Notation. */
function setPath(target: IDataObject, path: string, value: unknown): void {
	const keys = path.split('.');
	let cursor = target;
	for (const key of keys.slice(0, -1)) {
		if (typeof cursor[key] !== 'object' || cursor[key] === null) cursor[key] = {};
		cursor = cursor[key] as IDataObject;
	}
	cursor[keys[keys.length - 1]] = value as IDataObject[string];
}

/** n8n-nodes-base.set ("Edit Fields"), manual mapping with assignments (versions 3.3 to 3.5). */
export class EditFields implements INodeType {
	description = describe('set', 'Edit Fields (Set)', [3.3, 3.4, 3.5], {
		properties: [
			{ displayName: 'Mode', name: 'mode', type: 'string', default: 'manual' },
			{
				displayName: 'Fields to Set',
				name: 'assignments',
				type: 'assignmentCollection',
				default: {},
			},
			{
				displayName: 'Include Other Input Fields',
				name: 'includeOtherFields',
				type: 'boolean',
				default: false,
			},
			{ displayName: 'Options', name: 'options', type: 'json', default: {} },
		],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const node = this.getNode();
		if (this.getNodeParameter('mode', 0, 'manual') !== 'manual') {
			throw new NodeOperationError(node, 'The demo runs Edit Fields in "Manual Mapping" mode only');
		}
		return [
			this.getInputData().map((item, itemIndex) => {
				const { assignments = [] } = this.getNodeParameter('assignments', itemIndex, {}) as {
					assignments?: Assignment[];
				};
				const includeOtherFields = this.getNodeParameter('includeOtherFields', itemIndex, false);
				const json: IDataObject = includeOtherFields ? deepCopy(item.json) : {};
				for (const { name, type, value } of assignments) {
					let input = value;
					if (value === undefined || value === null) {
						setPath(json, name, null);
						continue;
					}
					if (type === 'string')
						input = typeof value === 'object' ? JSON.stringify(value) : String(value);
					const result = validateFieldType(name, input, type as FieldType);
					if (!result.valid) {
						throw new NodeOperationError(node, `${result.errorMessage} [item ${itemIndex}]`, {
							itemIndex,
						});
					}
					setPath(
						json,
						name,
						node.typeVersion >= 3.5 ? deepCopy(result.newValue) : result.newValue,
					);
				}
				return { json, pairedItem: { item: itemIndex } };
			}),
		];
	}
}

/** n8n-nodes-base.filter (2.x): keeps the items whose conditions hold. */
export class Filter implements INodeType {
	description = describe('filter', 'Filter', [2, 2.1, 2.2, 2.3], {
		properties: [
			{ displayName: 'Conditions', name: 'conditions', type: 'filter', default: {} },
			{
				displayName: 'Convert Types Where Required',
				name: 'looseTypeValidation',
				type: 'boolean',
				default: false,
			},
			{ displayName: 'Options', name: 'options', type: 'json', default: {} },
		],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const kept: INodeExecutionData[] = [];
		const discarded: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			// n8n's engine evaluates a `filter` parameter itself when asked for its value.
			const pass = this.getNodeParameter('conditions', itemIndex, false, {
				extractValue: true,
			}) as boolean;
			if (item.pairedItem === undefined) item.pairedItem = { item: itemIndex };
			(pass ? kept : discarded).push(item);
		});
		return [kept, discarded];
	}
}

/** n8n's flattenObject: nested objects become dotted keys, as Convert to File writes them. */
function flattenObject(data: IDataObject, prefix = ''): IDataObject {
	const flat: IDataObject = {};
	for (const [key, value] of Object.entries(data)) {
		const path = prefix ? `${prefix}.${key}` : key;
		if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
			Object.assign(flat, flattenObject(value as IDataObject, path));
		} else {
			flat[path] = value;
		}
	}
	return flat;
}

function csvCell(value: unknown): string | undefined {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
	if (typeof value === 'number' && !Number.isInteger(value)) {
		// SheetJS writes numbers in Excel's General format; the examples only produce integers.
		throw new Error('The demo writes whole numbers only');
	}
	return String(value);
}

/** The CSV SheetJS (`json_to_sheet` then `write` as csv) produces for the same rows. */
export function spreadsheetCsv(rows: IDataObject[], delimiter = ','): Buffer {
	const flatRows = rows.map((row) => flattenObject(row));
	const header: string[] = [];
	for (const row of flatRows)
		for (const key of Object.keys(row)) if (!header.includes(key)) header.push(key);
	const quote = (text: string) =>
		text.includes(delimiter) || text.includes('\n') || text.includes('"')
			? `"${text.replace(/"/g, '""')}"`
			: text;
	const lines = [
		header.map(quote),
		...flatRows.map((row) => header.map((key) => quote(csvCell(row[key]) ?? ''))),
	];
	if (lines[0][0] === 'ID') lines[0][0] = '"ID"';
	return Buffer.from(`\ufeff${lines.map((cells) => cells.join(delimiter)).join('\n')}`, 'utf8');
}

/** n8n-nodes-base.convertToFile, operation "Convert to CSV": all items become one file. */
export class ConvertToFile implements INodeType {
	description = describe('convertToFile', 'Convert to File', [1, 1.1], {
		properties: [
			{ displayName: 'Operation', name: 'operation', type: 'string', default: 'csv' },
			{
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
			},
			{ displayName: 'Options', name: 'options', type: 'json', default: {} },
		],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0, 'csv');
		if (operation !== 'csv') {
			throw new NodeOperationError(this.getNode(), 'The demo converts to CSV only');
		}
		const items = this.getInputData();
		const options = this.getNodeParameter('options', 0, {}) as IDataObject;
		const field = this.getNodeParameter('binaryPropertyName', 0, 'data') as string;
		const fileName = (options.fileName as string | undefined) ?? 'File.csv';
		const csv = spreadsheetCsv(
			items.map((item) => item.json),
			(options.delimiter as string | undefined) || ',',
		);
		const binary = await this.helpers.prepareBinaryData(csv, fileName, 'text/csv');
		return [
			[
				{
					json: {},
					binary: { [field]: binary },
					pairedItem: items.map((_, item) => ({ item })),
				},
			],
		];
	}
}

/** n8n-nodes-base.stickyNote: a note on the canvas; never runs. */
export class StickyNote implements INodeType {
	description = describe('stickyNote', 'Sticky Note', [1], {
		inputs: [],
		outputs: [],
		properties: [
			{ displayName: 'Content', name: 'content', type: 'string', default: '' },
			{ displayName: 'Height', name: 'height', type: 'number', default: 160 },
			{ displayName: 'Width', name: 'width', type: 'number', default: 240 },
		],
	});
}

/** The built-in node types the example workflows use, under their n8n type names. */
export const builtInNodeTypes: Record<string, INodeType> = {
	'n8n-nodes-base.scheduleTrigger': new ScheduleTrigger(),
	'n8n-nodes-base.set': new EditFields(),
	'n8n-nodes-base.filter': new Filter(),
	'n8n-nodes-base.convertToFile': new ConvertToFile(),
	'n8n-nodes-base.stickyNote': new StickyNote(),
};
