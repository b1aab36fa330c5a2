// Which outputs the action node shows. n8n evaluates this as an expression over the node's
// parameters (stored parameters only: one left at its default is absent), so the function is
// written without imports and is turned into the expression's text.

const outputsOf = (parameters: { resource?: string; rejected?: string }) =>
	parameters.resource === 'event' && parameters.rejected !== 'error'
		? [
				{ type: 'main', displayName: 'Verified' },
				{ type: 'main', displayName: 'Rejected' },
			]
		: [{ type: 'main' }];

export const actionNodeOutputs: `={{${string}}}` = `={{(${outputsOf.toString()})($parameter)}}`;
