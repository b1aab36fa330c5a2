import { existsSync, readFileSync } from 'fs';
import { join } from 'path';

import {
	installCommunityPackage,
	makeUserFolder,
} from '../../../harness/real-n8n/community-package';
import {
	E2E_OWNER,
	N8nSession,
	startN8n,
	type N8nServer,
} from '../../../harness/real-n8n/n8n-server';
import { packageName, repoRoot } from '../../../harness/real-n8n/paths';
import { runCommand, tail } from '../../../harness/real-n8n/processes';
import { packedTarball } from '../../../harness/real-n8n/setup';

// The codex files in real n8n 2.41.1: the packed package installed as a community package, the
// editor opened in headless Chromium (Debian's chromium), "dealership" typed into the node
// panel's search. The editor's search matches node names and codex aliases only (not
// descriptions), and no name contains "dealership", so only the codex can make a node appear.
// n8n lists an action node and the trigger of the same app as one entry; opening it must show
// both: the trigger's events under Triggers and the action node's operations under Actions.
// The node types the editor received (/types/nodes.json) must carry the shipped codex.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ACTION = `${packageName}.leadConversations`;
const TRIGGER = `${packageName}.leadConversationsTrigger`;

interface PanelSearch {
	query: string;
	listed: string[];
	opened?: { name: string; sections: Record<string, string[]> };
	nodeTypes: Array<{
		name: string;
		displayName: string;
		codex?: {
			categories?: string[];
			subcategories?: Record<string, string[]>;
			alias?: string[];
			resources?: {
				primaryDocumentation?: Array<{ url: string }>;
				credentialDocumentation?: Array<{ url: string }>;
			};
		};
	}>;
	/** What each of the --rank queries listed, in the panel's order. */
	ranked: Record<string, string[]>;
}

/** What a person types looking for the check that every lead gets a call. */
const SPEED_QUERIES = ['sla', 'speed to lead', 'not contacted', 'uncontacted lead'];

let server: N8nServer;
let userFolder: string;

beforeAll(async () => {
	if (!existsSync(CHROMIUM)) {
		throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
	}
	userFolder = makeUserFolder('panel');
	await installCommunityPackage(userFolder, packedTarball());
	// A first start migrates a fresh database: give a busy machine time.
	server = await startN8n({ userFolder, readyTimeoutMs: 240_000 });
	await N8nSession.signIn(server);
}, 360_000);

afterAll(async () => {
	await server?.stop();
});

async function searchPanel(query: string, rank: string[] = []): Promise<PanelSearch> {
	const screenshot = join(userFolder, `node-panel-${query}.png`);
	const result = await runCommand(
		process.execPath,
		[
			join(repoRoot, 'scripts', 'e2e', 'node-panel-search.mjs'),
			...['--url', server.url, '--query', query, '--screenshot', screenshot],
			...(rank.length > 0 ? ['--rank', rank.join(',')] : []),
			...['--email', E2E_OWNER.email, '--password', E2E_OWNER.password],
		],
		{ cwd: repoRoot, timeoutMs: 540_000, env: process.env },
	);
	if (result.code !== 0) {
		throw new Error(`node-panel-search failed:\n${tail(result.stdout)}\n${tail(result.stderr)}`);
	}
	return JSON.parse(result.stdout.trim().split('\n').pop()!);
}

describe('node panel search in the real editor', () => {
	let dealership: PanelSearch;
	beforeAll(async () => {
		dealership = await searchPanel('dealership', SPEED_QUERIES);
	}, 600_000);

	it('serves both nodes to the editor with the shipped codex', () => {
		for (const [type, file] of [
			[ACTION, 'nodes/LeadConversations/LeadConversations.node.json'],
			[TRIGGER, 'nodes/LeadConversationsTrigger/LeadConversationsTrigger.node.json'],
		]) {
			const shipped = JSON.parse(readFileSync(join(repoRoot, file), 'utf8'));
			const served = dealership.nodeTypes.filter((candidate) => candidate.name === type);
			expect(served.length).toBeGreaterThan(0);
			for (const version of served) {
				expect({ type, codex: version.codex }).toEqual({
					type,
					codex: {
						categories: shipped.categories,
						subcategories: shipped.subcategories,
						alias: shipped.alias,
						resources: shipped.resources,
					},
				});
			}
		}
	});

	// The panel lists the Polling Trigger on its own, as "Lead Conversations Polling".
	it.each(SPEED_QUERIES)('lists the package among the first three for "%s"', (query) => {
		const top = (dealership.ranked[query] ?? []).slice(0, 3);
		expect({
			query,
			top,
			found: top.some((name) => name.startsWith('Lead Conversations')),
		}).toEqual({ query, top, found: true });
	});

	it('finds the package for "dealership", with the trigger and the action node in it', () => {
		const dealershipInNames = dealership.nodeTypes.filter((type) =>
			type.displayName.toLowerCase().includes('dealership'),
		);
		expect(dealershipInNames).toEqual([]);
		expect(dealership.listed).toContain('Lead Conversations');

		const sections = dealership.opened?.sections ?? {};
		const section = (prefix: string) => {
			const title = Object.keys(sections).find((name) => name.startsWith(prefix));
			return { title, items: title ? sections[title] : [] };
		};
		const triggers = section('Triggers');
		const actions = section('Actions');
		// The trigger node: its events.
		// n8n counts the trigger's events; the polling trigger may be listed beside them.
		expect(triggers.title).toMatch(/^Triggers \(\d+\)$/);
		expect(triggers.items.length).toBeGreaterThanOrEqual(
			Number(/\d+/.exec(triggers.title ?? '')?.[0]),
		);
		expect(triggers.items).toEqual(
			expect.arrayContaining(['On lead qualified', 'On lead created', 'On all events']),
		);
		// The action node: one entry per operation of its three resources.
		expect(actions.title).toBe(`Actions (${actions.items.length})`);
		expect(actions.items).toEqual(
			expect.arrayContaining(['Create a lead', 'Get many conversations', 'Update an agent']),
		);
	});

	it.each(['assign', 'round robin'])(
		'finds the package for "%s", which no node name contains, by its codex aliases',
		async (query) => {
			const found = await searchPanel(query);
			const inNames = found.nodeTypes.filter((type) =>
				type.displayName.toLowerCase().includes(query),
			);
			expect(inNames).toEqual([]);
			expect(found.listed).toContain('Lead Conversations');
			const actions = Object.entries(found.opened?.sections ?? {}).find(([title]) =>
				title.startsWith('Actions'),
			);
			expect(actions?.[1]).toEqual(expect.arrayContaining(['Assign a lead to an advisor']));
		},
		600_000,
	);
});
