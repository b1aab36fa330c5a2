// Readable names for the specification's values, shared by every node so that a value is named
// the same way in every dropdown, list row and subtitle.

import type { INodePropertyOptions } from 'n8n-workflow';

const SPECIAL_NAMES: Record<string, string> = {
	api: 'API',
	purchase_30_days: 'Purchase Within 30 Days',
	purchase_90_days: 'Purchase Within 90 Days',
	'es-AR': 'Spanish (Argentina)',
	'es-MX': 'Spanish (Mexico)',
	'es-CR': 'Spanish (Costa Rica)',
	'es-CO': 'Spanish (Colombia)',
	'pt-BR': 'Portuguese (Brazil)',
	'en-US': 'English (United States)',
};

/** `in_conversation` → "In Conversation", `lead.status_changed` → "Lead Status Changed". */
export function displayNameOf(value: string): string {
	return (
		SPECIAL_NAMES[value] ??
		value
			.split(/[._]/)
			.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
			.join(' ')
	);
}

/** Options sorted by name, as n8n lists them. */
export function optionsOf(values: readonly string[]): INodePropertyOptions[] {
	return values
		.map((value) => ({ name: displayNameOf(value), value }))
		.sort((a, b) => a.name.localeCompare(b.name));
}
