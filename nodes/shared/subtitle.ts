// Canvas subtitles in the words of the panel's dropdowns ("Send Message: Conversation",
// "New Lead") rather than the values behind them ("sendMessage: conversation", "newLead").
// Built from the node's own options, so an operation or event added later is named too.

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

const parameter = (name: string) => `$parameter[${JSON.stringify(name)}]`;

/** One `condition ? "text" : …` chain, ending in `fallback` for values no option names. */
function chain(cases: Array<{ condition: string; text: string }>, fallback: string): string {
	const branches = cases.map(({ condition, text }) => `${condition} ? ${JSON.stringify(text)} : `);
	return `={{${branches.join('')}${fallback}}}`;
}

/** The name of the chosen option of one parameter, e.g. the polling trigger's Event. */
export function optionNameSubtitle(name: string, properties: INodeProperties[]): string {
	const options = (properties.find((property) => property.name === name)?.options ??
		[]) as INodePropertyOptions[];
	return chain(
		options.map((option) => ({
			condition: `${parameter(name)} === ${JSON.stringify(option.value)}`,
			text: option.name,
		})),
		parameter(name),
	);
}

/**
 * The names of the chosen options of a multi-option parameter, e.g. the webhook trigger's Events:
 * "Lead Qualified, Lead Assigned". A value no option names (typed in an expression) shows as is.
 */
export function optionNamesSubtitle(name: string, properties: INodeProperties[]): string {
	const options = (properties.find((property) => property.name === name)?.options ??
		[]) as INodePropertyOptions[];
	const nameOf = options
		.map(
			(option) => `value === ${JSON.stringify(option.value)} ? ${JSON.stringify(option.name)} : `,
		)
		.join('');
	const chosen = `(Array.isArray(${parameter(name)}) ? ${parameter(name)} : [])`;
	return `={{${chosen}.map((value) => ${nameOf}value).join(", ")}}`;
}

/**
 * "Operation: Resource" in the dropdowns' words, n8n's usual order. Each Operation property is
 * shown for one resource (`displayOptions.show.resource`).
 */
export function operationSubtitle(properties: INodeProperties[]): string {
	const resource = properties.find((property) => property.name === 'resource');
	const resourceNames = new Map(
		((resource?.options ?? []) as INodePropertyOptions[]).map((o) => [String(o.value), o.name]),
	);
	const cases = properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) =>
			(property.displayOptions?.show?.resource ?? []).flatMap((resourceValue) =>
				((property.options ?? []) as INodePropertyOptions[]).map((operation) => ({
					condition: `${parameter('resource')} === ${JSON.stringify(resourceValue)} && ${parameter('operation')} === ${JSON.stringify(operation.value)}`,
					text: `${operation.name}: ${resourceNames.get(String(resourceValue)) ?? String(resourceValue)}`,
				})),
			),
		);
	return chain(cases, `${parameter('operation')} + ": " + ${parameter('resource')}`);
}
