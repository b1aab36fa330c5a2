#!/usr/bin/env node
// Opens each node of the package in a running n8n editor, as a person reviewing them would, and
// takes the README's pictures of them: the action node (Lead → Get Many), the webhook trigger,
// the polling trigger and Event → Verify. It also does what a user trips over first: it fills in
// Agent → Update's Handoff Triggers with a blank row and runs the step, and opens Send Message's
// conversation list. Headless Chromium (Debian's `chromium` package) at 1440×900, driven by
// playwright-core from the n8n install, like screenshot-node-panel.mjs.
//
// Start the editor first (`npm run dev`), then:
//   node scripts/e2e/editor-review.mjs [--url http://localhost:5678] [--out-dir docs]
//     [--email E --password P] [--keep]
//
// It makes a workflow ("Editor review") and a Signing Secret credential through the editor's own
// REST calls, and deletes both at the end unless --keep is given. Prints one JSON line of what
// it saw, which test/e2e/specs/editor-review.e2e.ts checks.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { OWNER, launchChromium, option, repoRoot, signIn } from './editor.mjs';

const url = option('url', 'http://localhost:5678');
const outDir = resolve(repoRoot, option('out-dir', 'docs'));
const email = option('email', OWNER.email);
const password = option('password', OWNER.password);
const keep = process.argv.includes('--keep');
const PACKAGE = 'n8n-nodes-lead-conversations';

const step = (text) => process.stderr.write(`[editor-review] ${text}\n`);

/** The nodes of the review workflow; names are what the checks look for. */
const NODES = {
	trigger: 'Lead Conversations Trigger',
	poll: 'Lead Conversations Polling Trigger',
	getMany: 'Get many leads',
	sendMessage: 'Send a message',
	updateAgent: 'Update an agent',
	verify: 'Verify a delivery',
	manual: 'When clicking Execute workflow',
};

function reviewWorkflow(apiCredential, secretCredential) {
	const api = { leadConversationsApi: apiCredential };
	const node = (id, name, type, typeVersion, position, parameters, credentials) => ({
		id: `e0000000-0000-4000-8000-00000000000${id}`,
		name,
		type,
		typeVersion,
		position,
		parameters,
		...(credentials ? { credentials } : {}),
	});
	return {
		name: 'Editor review',
		nodes: [
			node(
				1,
				NODES.trigger,
				`${PACKAGE}.leadConversationsTrigger`,
				2,
				[0, 0],
				{
					events: ['lead.qualified'],
					subscription: 'manual',
					options: { intents: ['purchase_30_days'], channels: ['api'], maxEventAge: 60 },
				},
				{ ...api, leadConversationsSigningSecretApi: secretCredential },
			),
			node(
				2,
				NODES.poll,
				`${PACKAGE}.leadConversationsPollTrigger`,
				1,
				[0, 300],
				{
					event: 'leadStatus',
					statuses: ['qualified'],
					filters: { intents: ['purchase_30_days'], channels: ['api'] },
				},
				api,
			),
			node(3, NODES.manual, 'n8n-nodes-base.manualTrigger', 1, [0, 600], {}),
			node(
				4,
				NODES.getMany,
				`${PACKAGE}.leadConversations`,
				1.1,
				[300, 600],
				{
					resource: 'lead',
					operation: 'getAll',
					returnAll: true,
					filters: { intent: 'purchase_30_days', scoreMin: 60 },
					options: { onlyNewSinceLastRun: true, output: 'flat' },
				},
				api,
			),
			node(
				5,
				NODES.updateAgent,
				`${PACKAGE}.leadConversations`,
				1.1,
				[300, 800],
				{ resource: 'agent', operation: 'update', agent: { __rl: true, mode: 'list', value: '' } },
				api,
			),
			node(
				6,
				NODES.sendMessage,
				`${PACKAGE}.leadConversations`,
				1.1,
				[600, 600],
				{
					resource: 'conversation',
					operation: 'sendMessage',
					conversation: { __rl: true, mode: 'list', value: '' },
					content: 'Hello from the sales team',
				},
				api,
			),
			node(
				7,
				NODES.verify,
				`${PACKAGE}.leadConversations`,
				1.1,
				[600, 800],
				{ resource: 'event', operation: 'verify', options: { output: 'data' } },
				{ leadConversationsSigningSecretApi: secretCredential },
			),
		],
		connections: {
			[NODES.manual]: {
				main: [
					[
						{ node: NODES.getMany, type: 'main', index: 0 },
						{ node: NODES.updateAgent, type: 'main', index: 0 },
					],
				],
			},
			[NODES.getMany]: { main: [[{ node: NODES.sendMessage, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

async function rest(page, method, path, data) {
	// n8n ties its session cookie to the browser id the editor keeps and sends as a header.
	const browserId = await page.evaluate(() => window.localStorage.getItem('n8n-browserId'));
	const response = await page.request.fetch(`${url}/rest${path}`, {
		method,
		headers: browserId ? { 'browser-id': browserId } : {},
		...(data === undefined ? {} : { data }),
	});
	if (!response.ok())
		throw new Error(`${method} /rest${path}: ${response.status()} ${await response.text()}`);
	return (await response.json()).data;
}

/** The text a person sees in an element, input values and placeholders included. */
async function visibleText(locator) {
	return await locator.evaluate((element) => {
		// An empty input shows its placeholder ("Add Option" is a select's placeholder).
		const values = [...element.querySelectorAll('input, textarea')]
			.map((input) => input.value || input.placeholder)
			.filter((value) => value);
		return `${element.innerText}\n${values.join('\n')}`;
	});
}

const browser = await launchChromium();
const page = await browser.newPage({
	viewport: { width: 1440, height: 900 },
	deviceScaleFactor: 1,
});
page.setDefaultTimeout(60_000);
const seen = { screenshots: {} };
let workflowId;
let secretCredentialId;

/** A cold editor on a busy machine takes minutes to load its files. */
async function openWorkflow() {
	await page.goto(`${url}/workflow/${workflowId}`, {
		waitUntil: 'domcontentloaded',
		timeout: 240_000,
	});
}

async function openNode(name) {
	await openWorkflow();
	const canvasNode = page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).first();
	await canvasNode.waitFor({ state: 'visible', timeout: 120_000 });
	await canvasNode.dblclick();
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor({ state: 'visible' });
	await page.waitForTimeout(1_000);
	return ndv;
}

async function closeNode() {
	await page.keyboard.press('Escape');
	await page.waitForTimeout(500);
}

async function shoot(file) {
	mkdirSync(outDir, { recursive: true });
	const path = join(outDir, file);
	// Let toasts go away before the picture.
	await page
		.locator('.el-notification')
		.first()
		.waitFor({ state: 'hidden', timeout: 15_000 })
		.catch(() => {});
	await page.mouse.move(0, 899);
	await page.waitForTimeout(500);
	await page.screenshot({ path });
	seen.screenshots[file] = path;
	step(`saved ${path}`);
}

try {
	step(`signing in on ${url}`);
	await signIn(page, url, { email, password }, 240_000);

	const credentials = await rest(page, 'GET', '/credentials');
	const api = credentials.find((credential) => credential.type === 'leadConversationsApi');
	if (!api)
		throw new Error('No Lead Conversations API credential: start the editor with npm run dev');
	const secret = await rest(page, 'POST', '/credentials', {
		name: 'Lead Conversations signing secret (review)',
		type: 'leadConversationsSigningSecretApi',
		data: { signingSecret: 'whsec_review_0123456789abcdef' },
	});
	secretCredentialId = secret.id;
	const workflow = await rest(
		page,
		'POST',
		'/workflows',
		reviewWorkflow({ id: api.id, name: api.name }, { id: secret.id, name: secret.name }),
	);
	workflowId = workflow.id;
	step(`workflow ${workflowId} made`);

	// The canvas: each node's subtitle.
	await openWorkflow();
	const canvasNodes = page.locator('[data-test-id="canvas-node"]');
	await canvasNodes.first().waitFor({ state: 'visible', timeout: 180_000 });
	await page.waitForTimeout(1_500);
	seen.canvas = {};
	for (const name of Object.values(NODES)) {
		const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).first();
		seen.canvas[name] = (await node.innerText()).trim();
	}
	step(`canvas: ${JSON.stringify(seen.canvas)}`);

	// The webhook trigger: its two credential boxes and its own panel text.
	let ndv = await openNode(NODES.trigger);
	seen.trigger = { text: await visibleText(ndv) };
	seen.trigger.credentialLabels = (
		await ndv.locator('[data-test-id="node-credentials-select"]').evaluateAll((selects) =>
			selects.map((select) => {
				const item =
					select.closest('[data-test-id="node-credentials"] > *') ?? select.parentElement;
				return (item?.innerText ?? '').split('\n')[0].trim();
			}),
		)
	).filter(Boolean);
	await shoot('node-trigger.png');
	await closeNode();

	ndv = await openNode(NODES.poll);
	seen.poll = { text: await visibleText(ndv) };
	await shoot('node-poll-trigger.png');
	await closeNode();

	ndv = await openNode(NODES.getMany);
	seen.getMany = { text: await visibleText(ndv) };
	// Run the step (a manual run: the "since last run" mark stays where it is) to show real rows.
	await ndv.locator('[data-test-id="node-execute-button"]').first().click();
	await ndv
		.locator('[data-test-id="output-panel"] table')
		.first()
		.waitFor({ timeout: 120_000 })
		.catch(() => step('Get Many showed no table'));
	await shoot('node-action.png');
	await closeNode();

	ndv = await openNode(NODES.verify);
	seen.verify = { text: await visibleText(ndv) };
	await shoot('node-verify.png');
	await closeNode();

	// Send Message: the rows of its conversation list, and the values behind them.
	ndv = await openNode(NODES.sendMessage);
	const listed = page.waitForResponse(
		(response) =>
			response.url().includes('/rest/dynamic-node-parameters/resource-locator-results') &&
			response.request().method() === 'POST',
		{ timeout: 120_000 },
	);
	await ndv
		.locator('[data-test-id="resource-locator-conversation"] [data-test-id="rlc-input"]')
		.click();
	const response = await listed;
	const results = (await response.json()).data?.results ?? [];
	await page.waitForTimeout(1_500);
	seen.sendMessage = {
		rows: results.map(({ name, value }) => ({ name, value })),
		shownRows: await page
			.locator('[data-test-id="rlc-item"]')
			.allInnerTexts()
			.then((texts) => texts.map((text) => text.trim())),
	};
	await shoot('node-send-message-list.png');
	await page.keyboard.press('Escape');
	await closeNode();

	// Agent → Update: pick the first agent, add Handoff Triggers, type one trigger, add a blank
	// row, then run the step.
	ndv = await openNode(NODES.updateAgent);
	await ndv.locator('[data-test-id="resource-locator-agent"] [data-test-id="rlc-input"]').click();
	await page.locator('[data-test-id="rlc-item"]').first().click({ timeout: 120_000 });
	await page.waitForTimeout(500);
	await ndv
		.locator(
			'[data-test-id="collection-parameter-add"], [data-test-id="collection-parameter-add-dropdown"]',
		)
		.first()
		.click();
	await page
		.locator('[data-test-id="collection-parameter-option"]', { hasText: 'Handoff Triggers' })
		.first()
		.click();
	const rows = ndv.getByPlaceholder('e.g. price negotiation');
	await rows.first().waitFor({ state: 'visible' });
	await rows.first().fill('price negotiation');
	// A focused row shows a tip over the button below it: leave the row first.
	await rows.first().blur();
	await page.waitForTimeout(300);
	const addRow = ndv.getByRole('button', { name: 'Add Trigger' });
	await addRow.click({ timeout: 10_000 }).catch(() => addRow.dispatchEvent('click'));
	await page.waitForTimeout(500);
	const rowCount = await rows.count();
	await ndv.locator('[data-test-id="node-execute-button"]').first().click();
	// The step's output table, or its error: whichever shows first.
	const output = ndv.locator('[data-test-id="output-panel"] table').first();
	const error = ndv.locator('[data-test-id="node-error-message"]').first();
	await output.or(error).waitFor({ state: 'visible', timeout: 180_000 });
	const outcome = (await error.isVisible()) ? 'error' : 'output';
	seen.updateAgent = { rows: rowCount, outcome, text: await visibleText(ndv) };
	await shoot('node-agent-update.png');
	await closeNode();
	// What the editor stored for the rows: save, then read the workflow back.
	await page.keyboard.press('Control+s');
	await page.waitForTimeout(2_000);
	const stored = await rest(page, 'GET', `/workflows/${workflowId}`);
	seen.updateAgent.parameters = stored.nodes.find((n) => n.name === NODES.updateAgent)?.parameters;

	process.stdout.write(`${JSON.stringify(seen)}\n`);
} catch (error) {
	await page.screenshot({ path: join(outDir, 'editor-review.failed.png') }).catch(() => {});
	step(`failed; the page as it was: ${join(outDir, 'editor-review.failed.png')}`);
	throw error;
} finally {
	if (!keep) {
		if (workflowId) {
			// n8n 2.x deletes only an archived workflow.
			await rest(page, 'POST', `/workflows/${workflowId}/archive`).catch(() => {});
			await rest(page, 'DELETE', `/workflows/${workflowId}`).catch(() => {});
		}
		if (secretCredentialId) {
			await rest(page, 'DELETE', `/credentials/${secretCredentialId}`).catch(() => {});
		}
	}
	await browser.close();
}
