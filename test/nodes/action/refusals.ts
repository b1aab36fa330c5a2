import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunningSandbox } from '../../../harness/engine';
import { apiRequests, run } from './helpers';

/** One invalid value of one field, as data from an earlier node fills it through an expression. */
export interface Refusal {
	/** Where the expression goes: a parameter name, or "collection.option". */
	parameter: string;
	value: unknown;
	/** The node's whole message, without the " [item N]" it ends with. */
	message: string;
}

/** The parameters with `={{ $json.value }}` in place of one parameter or collection option. */
export function withExpression(parameters: INodeParameters, parameter: string): INodeParameters {
	const copy = structuredClone(parameters);
	const [name, option] = parameter.split('.');
	const expression = '={{ $json.value }}';
	if (option === undefined) copy[name] = expression;
	else
		copy[name] = { ...((copy[name] as INodeParameters | undefined) ?? {}), [option]: expression };
	return copy;
}

/**
 * One row of a refusal table: the field's label, where the expression goes, the value, and what
 * the node says after the label ("must be text (got true)").
 */
export type RefusalRow = [field: string, parameter: string, value: unknown, problem: string];

/**
 * Table rows for test.each: each refusal with the node's whole message (the label, then the
 * problem) and its value as a title shows it: "fax", 1.5, {"a":1}.
 */
export function refusals(rows: RefusalRow[]) {
	return rows.map(([field, parameter, value, problem]) => ({
		field,
		parameter,
		value,
		message: `${field} ${problem}`,
		shown: JSON.stringify(value),
	}));
}

/**
 * Runs the node on one item holding the value and expects the refusal every check of the node
 * gives: a NodeOperationError naming the field and item 0, and no request at all.
 */
export async function expectRefusedBeforeSending(
	sandbox: RunningSandbox,
	parameters: INodeParameters,
	{ parameter, value, message }: Refusal,
): Promise<void> {
	const result = await run(sandbox, withExpression(parameters, parameter), {
		inputItems: [{ value } as IDataObject],
	});
	expect(result.error?.message).toBe(`${message} [item 0]`);
	expect(result.error?.name).toBe('NodeOperationError');
	expect(result.error?.context?.itemIndex).toBe(0);
	expect(apiRequests(sandbox)).toHaveLength(0);
}
