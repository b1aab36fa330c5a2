import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LEAD_ID_PREFIX } from '../../../shared/constants';
import { checkIdPrefix } from '../../../shared/validation';
import { leadLocator } from '../common.descriptions';
import { locatorValue, throwIfInvalid } from '../input';
import { requestRecord } from '../record';

const properties: INodeProperties[] = [leadLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const leadId = locatorValue.call(this, 'lead', itemIndex);
	throwIfInvalid.call(this, itemIndex, checkIdPrefix('Lead', leadId, LEAD_ID_PREFIX));

	const address = { collection: 'leads', label: 'Lead', id: leadId };
	return [await requestRecord.call(this, 'GET', address, { itemIndex })];
}
