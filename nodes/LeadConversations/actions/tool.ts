// How the node behaves when n8n's AI Agent runs it as a tool: values a model leaves empty change
// nothing, lists stay small, and a mistake comes back as text the model can read and correct.

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { COMPACT_LEAD_FIELDS } from './tool.descriptions';

/** n8n runs the tool variant of a node under the node's type name with "Tool" appended. */
export function isToolNode(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

function isEmptyText(value: unknown): boolean {
	return typeof value === 'string' && value.trim() === '';
}

/**
 * A collection (filters, fields to update) without the entries whose value is empty text: a
 * model that fills a field with "" means "nothing", which must neither filter nor overwrite.
 */
export function withoutEmptyEntries(value: unknown): unknown {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
	// A resource locator is one value, not a collection.
	if ('__rl' in value) return value;
	const kept: IDataObject = {};
	for (const [name, entry] of Object.entries(value as IDataObject)) {
		if (!isEmptyText(entry)) kept[name] = entry;
	}
	return kept;
}

/**
 * The execution context an operation sees when run as a tool: the same context, except that
 * collections read through it lose the entries a model left empty. Anything the workflow's author
 * did not leave to the model is a fixed parameter and cannot be changed by it in any case.
 */
export function toolContext(context: IExecuteFunctions): IExecuteFunctions {
	const getNodeParameter = context.getNodeParameter.bind(context) as (
		...args: unknown[]
	) => unknown;
	return Object.create(context, {
		getNodeParameter: {
			value: (...args: unknown[]) => withoutEmptyEntries(getNodeParameter(...args)),
		},
	}) as IExecuteFunctions;
}

/**
 * An AI Agent hands a failed tool call back to the model as the error's message alone, so the
 * details (HTTP status, the service's code, what to do) join the message.
 */
export function explainForModel(error: unknown): void {
	if (!(error instanceof Error)) return;
	const description = (error as { description?: unknown }).description;
	if (typeof description !== 'string' || description.trim() === '') return;
	if (error.message.includes(description)) return;
	error.message = `${error.message}. ${description}`;
}

/** A lead reduced to the fields a model needs to answer about it and act on it. */
export function compactLead(lead: IDataObject): IDataObject {
	const compact: IDataObject = {};
	for (const field of COMPACT_LEAD_FIELDS) compact[field] = lead[field] ?? null;
	return compact;
}
