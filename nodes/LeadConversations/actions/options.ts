// Dropdown options built from the constants of the specification, with readable names.

import type { INodePropertyOptions } from 'n8n-workflow';

const SPECIAL_NAMES: Record<string, string> = {
	purchase_30_days: 'Purchase Within 30 Days',
	purchase_90_days: 'Purchase Within 90 Days',
	'es-AR': 'Spanish (Argentina)',
	'es-MX': 'Spanish (Mexico)',
	'es-CR': 'Spanish (Costa Rica)',
	'es-CO': 'Spanish (Colombia)',
	'pt-BR': 'Portuguese (Brazil)',
	'en-US': 'English (United States)',
};

/** `in_conversation` → "In Conversation". */
export function displayNameOf(value: string): string {
	return (
		SPECIAL_NAMES[value] ??
		value
			.split('_')
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
