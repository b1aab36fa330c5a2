// Reading parameters of one item and refusing bad input before anything is sent.

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isRecord } from '../../shared/isRecord';
import type { Problem } from '../../shared/validation';
import { checkBoolean, checkLimit, isGiven } from '../../shared/validation';

/** Throws the problem as an error of this item, in n8n's "[item N]" style. */
export function throwIfInvalid(this: IExecuteFunctions, itemIndex: number, problem: Problem): void {
	if (problem === undefined) return;
	throw new NodeOperationError(this.getNode(), `${problem} [item ${itemIndex}]`, {
		itemIndex,
		description: 'Nothing was sent to the service for this item.',
	});
}

/**
 * An optional parameter, unchecked: an expression may have given it any type. Null, what an
 * expression gives for a value its data lacks, falls back to the default like a parameter left out.
 */
export function optionalParameter(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: string | number | boolean,
): unknown {
	return this.getNodeParameter(name, itemIndex, fallback) ?? fallback;
}

/** The value of a resource locator (From List or By ID), trimmed. */
export function locatorValue(this: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = this.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number') return String(value);
	if (value && typeof value === 'object' && 'value' in value) {
		return String((value as { value: unknown }).value ?? '').trim();
	}
	return '';
}

export interface ListOptions {
	returnAll: boolean;
	limit?: number;
}

export function readListOptions(this: IExecuteFunctions, itemIndex: number): ListOptions {
	const returnAll = optionalParameter.call(this, 'returnAll', itemIndex, false);
	throwIfInvalid.call(this, itemIndex, checkBoolean('Return All', returnAll));
	if (returnAll === true) return { returnAll: true };
	const limit = this.getNodeParameter('limit', itemIndex, 50);
	throwIfInvalid.call(this, itemIndex, checkLimit('Limit', limit));
	return { returnAll: false, limit: limit as number };
}

/** A collection parameter (filters, options, fields to update) as a plain object. */
export function collectionParameter(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
): IDataObject {
	return (this.getNodeParameter(name, itemIndex, {}) as IDataObject) ?? {};
}

/** The optional fields to send, keyed by the service's names: only those given (see `isGiven`). */
export function givenOnly(values: IDataObject): IDataObject {
	const given: IDataObject = {};
	for (const [name, value] of Object.entries(values)) {
		if (isGiven(value)) given[name] = value;
	}
	return given;
}

/** Text fields of a collection: set when present, trimmed; an empty text counts as absent. */
export function trimmedText(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const trimmed = String(value).trim();
	return trimmed === '' ? undefined : trimmed;
}

/** Date-time parameters arrive as text, or as a date object from an expression. */
export function dateText(value: unknown): string | undefined {
	if (value instanceof Date) return value.toISOString();
	if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	) {
		return String((value as { toISO: () => string }).toISO());
	}
	return trimmedText(value);
}

/** A response body as an output item; a body that is not an object is kept under `response`. */
export function bodyAsItem(body: unknown): IDataObject {
	if (isRecord(body)) return body as IDataObject;
	return { response: (body ?? null) as IDataObject[string] };
}
