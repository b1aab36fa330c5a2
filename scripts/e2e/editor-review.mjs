#!/usr/bin/env node
// Opens each node of the package in a running n8n editor, as a person reviewing them would, and
// takes the README's pictures of them: the action node (Lead → Get Many, Lead → Assign), the
// webhook trigger, the Polling Trigger (New or Updated Lead) and Event → Verify. It also does what
// a user trips over first: it fills in Agent → Update's Handoff Triggers with a blank row and runs
// the step, opens Send Message's conversation list, and measures the Output dropdowns' options. Headless Chromium (Debian's `chromium` package) at 1440×900, driven by
// playwright-core from the n8n install, like screenshot-node-panel.mjs.
//
// Start the editor first (`npm run dev`), then:
//   node scripts/e2e/editor-review.mjs [--url http://localhost:5678] [--out-dir docs]
//     [--email E --password P] [--keep]
//
// It makes a workflow ("Editor review") and a Signing Secret credential through the editor's own
// REST calls, and deletes both at the end unless --keep is given. Prints one JSON line of what
// it saw, which test/e2e/specs/editor-review.e2e.ts checks.
import { join, resolve } from 'node:path';

import { OWNER, launchChromium, option, repoRoot, signIn } from './editor.mjs';
import { reviewPage, visibleText } from './review-page.mjs';
import { NODES, reviewWorkflow } from './review-workflow.mjs';

const url = option('url', 'http://localhost:5678');
const outDir = resolve(repoRoot, option('out-dir', 'docs'));
const email = option('email', OWNER.email);
const password = option('password', OWNER.password);
const keep = process.argv.includes('--keep');

const step = (text) => process.stderr.write(`[editor-review] ${text}\n`);

const browser = await launchChromium();
const page = await browser.newPage({
	viewport: { width: 1440, height: 900 },
	deviceScaleFactor: 1,
});
page.setDefaultTimeout(60_000);
const seen = { screenshots: {} };
let workflowId;
let secretCredentialId;

const { rest, openWorkflow, openNode, closeNode, shoot, measureOption } = reviewPage({
	page,
	url,
	outDir,
	seen,
	step,
	workflow: () => workflowId,
});

try {
	step(`signing in on ${url}`);
	await signIn(page, url, { email, password }, 240_000);
	// The editor's one-time "you can pin this output" tip would cover the pictures' output panel.
	await page.evaluate(() => {
		for (const key of ['N8N_PIN_DATA_DISCOVERY_NDV', 'N8N_PIN_DATA_DISCOVERY_CANVAS'])
			window.localStorage.setItem(key, 'true');
	});

	const credentials = await rest('GET', '/credentials');
	const api = credentials.find((credential) => credential.type === 'leadConversationsApi');
	if (!api)
		throw new Error('No Lead Conversations API credential: start the editor with npm run dev');
	const secret = await rest('POST', '/credentials', {
		name: 'Lead Conversations signing secret (review)',
		type: 'leadConversationsSigningSecretApi',
		data: { signingSecret: 'whsec_review_0123456789abcdef' },
	});
	secretCredentialId = secret.id;
	const workflow = await rest(
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
	// Output's dropdown: is Current Lead, Flat's description shown whole?
	seen.trigger.currentLeadFlat = await measureOption(ndv, 'output', 'Current Lead, Flat');
	await closeNode();

	ndv = await openNode(NODES.poll);
	// The trigger's own help sits under "When will this node trigger my flow?": open it to read it.
	await ndv
		.getByText('When will this node trigger my flow?')
		.first()
		.click({ timeout: 10_000 })
		.catch(() => step('no "When will this node trigger my flow?" to open'));
	await page.waitForTimeout(500);
	seen.poll = { text: await visibleText(ndv) };
	await closeNode();

	// New or Updated Lead: its cost notice (how tall it stands) and Output's Flat.
	ndv = await openNode(NODES.sync);
	seen.sync = { text: await visibleText(ndv) };
	const notice = ndv.getByText('Each poll reads all your leads', { exact: false }).first();
	seen.sync.costNotice = await notice
		.evaluate((element) => {
			// Lines as drawn: the distinct tops of the text's boxes.
			const range = document.createRange();
			range.selectNodeContents(element);
			const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
			return { text: element.innerText.trim(), lines: tops.size };
		})
		.catch(() => undefined);
	// Fetch Test Event: real rows in the picture; it moves no position.
	await ndv.locator('[data-test-id="node-execute-button"]').first().click();
	await ndv
		.locator('[data-test-id="output-panel"] table')
		.first()
		.waitFor({ timeout: 120_000 })
		.catch(() => step('Fetch Test Event showed no table'));
	await shoot('node-poll-trigger.png');
	seen.sync.flat = await measureOption(ndv, 'output', 'Flat');
	await closeNode();

	// The node type as the editor knows it: its name, and the name a new node gets.
	const types = await (await page.request.get(`${url}/types/nodes.json`)).json();
	const pollType = types.find((type) => type.name.endsWith('.leadConversationsPollTrigger'));
	seen.pollType = { displayName: pollType?.displayName, defaultName: pollType?.defaults?.name };

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

	ndv = await openNode(NODES.assign);
	seen.assign = { text: await visibleText(ndv) };
	await shoot('node-assign.png');
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
	const stored = await rest('GET', `/workflows/${workflowId}`);
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
			await rest('POST', `/workflows/${workflowId}/archive`).catch(() => {});
			await rest('DELETE', `/workflows/${workflowId}`).catch(() => {});
		}
		if (secretCredentialId) {
			await rest('DELETE', `/credentials/${secretCredentialId}`).catch(() => {});
		}
	}
	await browser.close();
}
