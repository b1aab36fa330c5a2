// The names of the leads a page of conversations belongs to: a conversation carries only its
// lead's ID, and a row named by an ID tells a user nothing.

import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

import { LEAD_ID_PREFIX } from '../../shared/constants';
import { apiRequest } from '../../shared/transport';

/**
 * One GET per distinct lead, one after another (the transport paces them). A lead that cannot
 * be read keeps its ID as its name: the list still shows, and the row can still be chosen.
 */
export async function leadNames(
	this: ILoadOptionsFunctions,
	leadIds: unknown[],
): Promise<Map<string, string>> {
	const names = new Map<string, string>();
	const distinct = [...new Set(leadIds.map(String))].filter((id) => id.startsWith(LEAD_ID_PREFIX));
	for (const id of distinct) {
		try {
			const { body } = await apiRequest.call(this, 'GET', `/leads/${encodeURIComponent(id)}`);
			const name = (body as IDataObject | undefined)?.name;
			if (typeof name === 'string' && name.trim() !== '') names.set(id, name.trim());
		} catch {
			// The ID stands in for the name.
		}
	}
	return names;
}
