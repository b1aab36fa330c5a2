// One record of the service addressed by its ID (`/leads/{id}`, `/agents/{id}`…), read or
// changed, its answer becoming the operation's output item.

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import { bodyAsItem } from './input';

export interface RecordAddress {
	/** The path segment of the record's kind: leads, conversations, agents. */
	collection: string;
	/** How errors name the record: "Lead lead_…". */
	label: string;
	id: string;
}

/** GET or PATCH one record; its answer as an item, and the answer's headers. */
export async function requestRecordAnswer(
	this: IExecuteFunctions,
	method: 'GET' | 'PATCH',
	{ collection, label, id }: RecordAddress,
	options: { itemIndex: number; body?: IDataObject },
): Promise<{ record: IDataObject; headers: IDataObject }> {
	const path = `/${collection}/${encodeURIComponent(id)}`;
	const { body, headers } = await apiRequest.call(this, method, path, {
		...options,
		about: `${label} ${id}`,
	});
	return { record: bodyAsItem(body), headers };
}

/** GET or PATCH one record; its answer as an item. */
export async function requestRecord(
	this: IExecuteFunctions,
	method: 'GET' | 'PATCH',
	address: RecordAddress,
	options: { itemIndex: number; body?: IDataObject },
): Promise<IDataObject> {
	return (await requestRecordAnswer.call(this, method, address, options)).record;
}
