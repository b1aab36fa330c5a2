// What a workflow run through the engine left: the run, each node's output, the errors the nodes
// really threw (class, httpCode, description), the static data and the logs.

import {
	NodeConnectionTypes,
	type ExecutionStatus,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
	type IRun,
	type Workflow,
} from 'n8n-workflow';

export type NodeFailure = Error & {
	message: string;
	description?: string | null;
	httpCode?: string | null;
	context?: IDataObject;
	node?: INode;
};

export interface RunResult {
	status: ExecutionStatus;
	run: IRun;
	/** Items a node sent to one of its outputs; [] when it did not run. */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** The error that stopped the execution, as the node threw it. */
	error?: NodeFailure;
	/** The error a given node threw (also when the workflow went on because of its On Error setting). */
	nodeError(nodeName: string): NodeFailure | undefined;
	/** The workflow's static data after the run. */
	staticData: IDataObject;
	/** Every line n8n's loggers wrote during the run. */
	logs: string[];
}

/**
 * The engine keeps only a flattened copy of a node's error. To let tests assert on the error the
 * node really threw (class, httpCode, description), each `execute` is observed on its way out;
 * the error itself travels on unchanged.
 */
export function recordThrownErrors(
	nodeTypes: INodeTypes,
	thrown: Map<string, NodeFailure>,
): INodeTypes {
	const observed = new WeakMap<INodeType, INodeType>();
	const observe = (nodeType: INodeType): INodeType => {
		const execute = nodeType.execute;
		if (typeof execute !== 'function') return nodeType;
		let wrapper = observed.get(nodeType);
		if (!wrapper) {
			wrapper = Object.create(nodeType, {
				execute: {
					value: async function (this: IExecuteFunctions) {
						try {
							return await execute.call(this);
						} catch (error) {
							thrown.set(this.getNode().name, error as NodeFailure);
							throw error;
						}
					},
				},
			}) as INodeType;
			observed.set(nodeType, wrapper);
		}
		return wrapper;
	};
	return {
		getByName: (name) => nodeTypes.getByName(name),
		getByNameAndVersion: (name, version) => {
			const nodeType = nodeTypes.getByNameAndVersion(name, version);
			return nodeType === undefined ? nodeType : observe(nodeType);
		},
		getKnownTypes: () => nodeTypes.getKnownTypes(),
	};
}

export function buildResult(
	run: IRun,
	workflow: Workflow,
	thrown: Map<string, NodeFailure>,
	logs: string[],
): RunResult {
	const { runData, error: runError, lastNodeExecuted } = run.data.resultData;
	const taskOf = (nodeName: string) => {
		const tasks = runData[nodeName];
		return tasks?.[tasks.length - 1];
	};
	const nodeError = (nodeName: string): NodeFailure | undefined =>
		thrown.get(nodeName) ?? (taskOf(nodeName)?.error as NodeFailure | undefined);

	let error: NodeFailure | undefined;
	if (runError) {
		const original = lastNodeExecuted ? thrown.get(lastNodeExecuted) : undefined;
		error =
			original && original.message === runError.message ? original : (runError as NodeFailure);
	}

	return {
		status: run.status,
		run,
		output: (nodeName, outputIndex = 0) =>
			taskOf(nodeName)?.data?.[NodeConnectionTypes.Main]?.[outputIndex] ?? [],
		error,
		nodeError,
		staticData: toPlainData(workflow.staticData),
		logs,
	};
}

/** Static data without n8n's change-tracking marker. */
export function toPlainData(data: IDataObject): IDataObject {
	const plain = JSON.parse(JSON.stringify(data)) as IDataObject;
	delete plain.__dataChanged;
	return plain;
}
