// Description pieces that every node lays out the same way.

import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * The "Options" collection n8n's own nodes show behind an "Add Option" button. Its options stay
 * sorted by name, as n8n's lint wants: `test/nodes/shared/descriptions.test.ts` checks every node.
 */
export function optionsCollection(
	options: INodeProperties[],
	displayOptions?: IDisplayOptions,
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		...(displayOptions ? { displayOptions } : {}),
		options,
	};
}
