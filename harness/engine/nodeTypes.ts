import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { PackageDirectoryLoader } from 'n8n-core';
import {
	NodeConnectionTypes,
	NodeHelpers,
	UserError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type INodeTypes,
	type IVersionedNodeType,
} from 'n8n-workflow';

export const PACKAGE_NAME = 'n8n-nodes-lead-conversations';
export const ACTION_NODE_TYPE = `${PACKAGE_NAME}.leadConversations`;
export const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.leadConversationsTrigger`;
export const MANUAL_TRIGGER_NODE_TYPE = 'n8n-nodes-base.manualTrigger';
export const NO_OP_NODE_TYPE = 'n8n-nodes-base.noOp';

type AnyNodeType = INodeType | IVersionedNodeType;

/**
 * The package's node classes are loaded when first asked for, not when the harness is imported,
 * so a test of one node does not depend on the other compiling.
 */
const packageNodes: Record<string, { modulePath: string; className: string }> = {
	leadConversations: {
		modulePath: '../../nodes/LeadConversations/LeadConversations.node',
		className: 'LeadConversations',
	},
	leadConversationsTrigger: {
		modulePath: '../../nodes/LeadConversationsTrigger/LeadConversationsTrigger.node',
		className: 'LeadConversationsTrigger',
	},
};

function loadPackageNode(shortName: string): AnyNodeType {
	const { modulePath, className } = packageNodes[shortName];
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exported = (require(modulePath) as Record<string, new () => AnyNodeType>)[className];
	if (typeof exported !== 'function') {
		throw new UserError(`${modulePath} does not export a class named ${className}`);
	}
	return new exported();
}

const BUILT_IN_PACKAGE = 'n8n-nodes-base';
let builtInPackage: PackageDirectoryLoader | undefined;

/**
 * A node of n8n-nodes-base, loaded the way n8n loads that package: the package's index of known
 * nodes (dist/known/nodes.json, what n8n's lazy package loader reads) names each node's class
 * file, and n8n-core's package loader loads that class on first use.
 */
function loadBuiltInNode(nodeType: string): AnyNodeType | undefined {
	const [packageName, shortName] = nodeType.split('.');
	if (packageName !== BUILT_IN_PACKAGE) return undefined;
	if (builtInPackage === undefined) {
		const directory = dirname(require.resolve(`${BUILT_IN_PACKAGE}/package.json`));
		builtInPackage = new PackageDirectoryLoader(directory);
		builtInPackage.known.nodes = JSON.parse(
			readFileSync(join(directory, 'dist', 'known', 'nodes.json'), 'utf8'),
		) as PackageDirectoryLoader['known']['nodes'];
	}
	if (!Object.hasOwn(builtInPackage.known.nodes, shortName)) return undefined;
	return builtInPackage.getNode(shortName).type;
}

/** Test-only stand-in for n8n's Manual Trigger: passes on what the execution starts with. */
export class ManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Starts the workflow in tests',
		defaults: { name: 'Manual Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		return [items.length > 0 ? items : [{ json: {} }]];
	}
}

/**
 * The description of a test-only node: one main input, one main output, version 1, named
 * `displayName` in the editor and `name` in workflow JSON; `more` adds or replaces fields.
 */
export function testNodeDescription(
	displayName: string,
	name: string,
	description: string,
	more: Partial<INodeTypeDescription> = {},
): INodeTypeDescription {
	return {
		displayName,
		name,
		group: ['transform'],
		version: 1,
		description,
		defaults: { name: displayName },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
		...more,
	};
}

/** Test-only stand-in for n8n's No Operation node: passes items through unchanged. */
export class NoOp implements INodeType {
	description = testNodeDescription('No Operation, do nothing', 'noOp', 'Passes items through', {
		group: ['organization'],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

class HarnessNodeTypes implements INodeTypes {
	private readonly loaded = new Map<string, AnyNodeType>();

	constructor(
		private readonly factories: Record<string, () => AnyNodeType>,
		private readonly aliases: Record<string, string>,
	) {}

	getByName(nodeType: string): AnyNodeType {
		const resolved = this.resolve(nodeType);
		if (resolved === undefined) {
			throw new UserError(`Unknown node type "${nodeType}"`);
		}
		return resolved;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const resolved = this.resolve(nodeType);
		// n8n's Workflow skips nodes whose type is unknown, so undefined (not a throw) is expected.
		if (resolved === undefined) return undefined as unknown as INodeType;
		return NodeHelpers.getVersionedNodeType(resolved, version);
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(Object.keys(this.factories).map((name) => [name, {}]));
	}

	private resolve(nodeType: string): AnyNodeType | undefined {
		const name = this.aliases[nodeType] ?? nodeType;
		const cached = this.loaded.get(name);
		if (cached) return cached;
		const factory = this.factories[name];
		const instance = factory ? factory() : loadBuiltInNode(name);
		if (instance === undefined) return undefined;
		this.loaded.set(name, instance);
		return instance;
	}
}

/**
 * The node types a test workflow may use: the package's action node and trigger (under their
 * package type names and as `CUSTOM.*`, the prefix n8n gives nodes loaded from a custom folder),
 * a manual trigger and a no-op, anything a test adds, and every other `n8n-nodes-base.*` type as
 * the real built-in node.
 */
export function createNodeTypes(
	extra: Record<string, INodeType | IVersionedNodeType> = {},
): INodeTypes {
	const factories: Record<string, () => AnyNodeType> = {
		[ACTION_NODE_TYPE]: () => loadPackageNode('leadConversations'),
		[TRIGGER_NODE_TYPE]: () => loadPackageNode('leadConversationsTrigger'),
		[MANUAL_TRIGGER_NODE_TYPE]: () => new ManualTrigger(),
		[NO_OP_NODE_TYPE]: () => new NoOp(),
	};
	for (const [name, nodeType] of Object.entries(extra)) {
		factories[name] = () => nodeType;
	}
	const aliases = {
		'CUSTOM.leadConversations': ACTION_NODE_TYPE,
		'CUSTOM.leadConversationsTrigger': TRIGGER_NODE_TYPE,
	};
	return new HarnessNodeTypes(factories, aliases);
}

/** The newest version a node type offers, as n8n picks for a freshly added node. */
export function latestVersion(nodeType: AnyNodeType): number {
	if ('nodeVersions' in nodeType) return nodeType.currentVersion;
	const { version } = nodeType.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}
