import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LEAD_ID_PREFIX } from '../../../shared/constants';
import { apiRequest } from '../../../shared/transport';
import { checkIdPrefix } from '../../../shared/validation';
import { leadLocator } from '../common.descriptions';
import { locatorValue, bodyAsItem, throwIfInvalid } from '../input';

const properties: INodeProperties[] = [leadLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const leadId = locatorValue.call(this, 'lead', itemIndex);
	throwIfInvalid.call(this, itemIndex, checkIdPrefix('Lead', leadId, LEAD_ID_PREFIX));

	const path = `/leads/${encodeURIComponent(leadId)}`;
	const { body: lead } = await apiRequest.call(this, 'GET', path, {
		itemIndex,
		about: `Lead ${leadId}`,
	});
	return [bodyAsItem(lead)];
}
