// The Options collections are built by a helper, where n8n's lint cannot see their option lists:
// the rule it would apply (options sorted by name) is checked here on every node instead.
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { LeadConversations } from '../../../nodes/LeadConversations/LeadConversations.node';
import { LeadConversationsPollTrigger } from '../../../nodes/LeadConversationsPollTrigger/LeadConversationsPollTrigger.node';
import { LeadConversationsTrigger } from '../../../nodes/LeadConversationsTrigger/LeadConversationsTrigger.node';
import { optionsCollection } from '../../../nodes/shared/descriptions';

const descriptions: INodeTypeDescription[] = [
	new LeadConversations().description,
	new LeadConversationsTrigger().description,
	new LeadConversationsPollTrigger().description,
];

/** `node › collection` paths of the collections whose options are not sorted by display name. */
export function unsortedCollections(properties: INodeProperties[], path: string): string[] {
	return properties.flatMap((property) => {
		if (property.type !== 'collection') return [];
		const options = (property.options ?? []) as INodeProperties[];
		const names = options.map((option) => option.displayName);
		const sorted = [...names].sort((a, b) => a.localeCompare(b));
		const here = names.join('|') === sorted.join('|') ? [] : [`${path} › ${property.displayName}`];
		return [...here, ...unsortedCollections(options, `${path} › ${property.displayName}`)];
	});
}

describe('Options collections', () => {
	it('are laid out as n8n lays them out', () => {
		expect(optionsCollection([])).toEqual({
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [],
		});
	});

	it('the check finds an unsorted collection', () => {
		const option = (displayName: string) =>
			({ displayName, name: displayName, type: 'string', default: '' }) as INodeProperties;
		expect(unsortedCollections([optionsCollection([option('B'), option('A')])], 'x')).toEqual([
			'x › Options',
		]);
	});

	it.each(descriptions.map((d) => [d.displayName, d] as const))(
		'%s: every collection lists its options sorted by name',
		(name, description) => {
			expect(unsortedCollections(description.properties, name)).toEqual([]);
		},
	);
});
