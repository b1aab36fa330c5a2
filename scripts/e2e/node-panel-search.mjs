#!/usr/bin/env node
// Types a query into the node panel of a running n8n editor, as a person would, and prints what
// it lists, with the node types the editor received from the server. Headless Chromium (Debian's
// `chromium` package) driven by playwright-core from the n8n install.
//
//   node scripts/e2e/node-panel-search.mjs --url http://localhost:5678 --query dealership \
//     [--rank 'sla,speed to lead'] [--email E --password P] [--screenshot file.png]
//
// Prints one JSON line: { query, listed: [names], opened: { name, sections: { "Triggers (7)":
// [...], "Actions (10)": [...] } }, nodeTypes: [...], ranked: { sla: [names] } }, where opened is the package's entry of the
// results opened, and nodeTypes are the package's entries of /types/nodes.json (what the editor
// searches).
import { resolve } from 'node:path';

import { OWNER, launchChromium, option, signIn } from './editor.mjs';

const url = option('url', 'http://localhost:5678');
const query = option('query', 'dealership');
// Also typed first, one after the other, only to see where the package ranks for each.
const rankQueries = (option('rank', '') ?? '').split(',').filter(Boolean);
const email = option('email', OWNER.email);
const password = option('password', OWNER.password);
const screenshot = option('screenshot');
const packagePrefix = 'n8n-nodes-lead-conversations.';

/** Progress on stderr, so a run that stops tells where. */
const step = (text) => process.stderr.write(`[node-panel-search] ${text}\n`);

step('launching Chromium');
const browser = await launchChromium();
let page;
try {
	page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
	// A cold editor loads some 450 files; on a busy two-core machine that takes minutes.
	page.setDefaultTimeout(180_000);
	step(`opening ${url}/signin`);
	await signIn(page, url, { email, password }, 240_000);
	step('signed in');

	// What the editor loads to build its node panel, fetched with the editor's own session.
	const typesResponse = await page.request.get(`${url}/types/nodes.json`);
	if (!typesResponse.ok()) throw new Error(`GET /types/nodes.json: ${typesResponse.status()}`);
	const nodeTypes = (await typesResponse.json())
		.filter((type) => type.name.startsWith(packagePrefix))
		.map(({ name, displayName, version, group, codex }) => ({
			name,
			displayName,
			version,
			group,
			codex,
		}));

	step(
		`${nodeTypes.length} node types of the package in /types/nodes.json; opening a new workflow`,
	);
	await page.goto(`${url}/workflow/new`, { waitUntil: 'domcontentloaded', timeout: 240_000 });
	// A new workflow opens the node panel by itself ("What triggers this workflow?"); the canvas's
	// plus button opens it otherwise.
	const search = page.getByPlaceholder('Search nodes...').first();
	const plus = page.locator('[data-test-id="node-creator-plus-button"]').first();
	await search.or(plus).first().waitFor({ state: 'visible', timeout: 180_000 });
	if (!(await search.isVisible())) await plus.click();
	await search.waitFor({ state: 'visible', timeout: 60_000 });
	const panelTitle =
		(await page
			.locator('[data-test-id="node-creator"] h1, [class*="nodeCreator"] [class*="title"]')
			.first()
			.textContent()
			.catch(() => '')) ?? '';
	step(`node panel open${panelTitle ? `: "${panelTitle.trim()}"` : ''}`);
	const panel = page.locator('[data-test-id="node-creator"]').first();
	const names = () =>
		panel
			.locator('[data-test-id="item-iterator-item"] [data-test-id="node-creator-item-name"]')
			.allTextContents()
			.then((texts) => texts.map((text) => text.trim()));
	const ranked = {};
	for (const typed of rankQueries) {
		await search.fill('');
		await search.pressSequentially(typed, { delay: 50 });
		await page.waitForTimeout(1_000);
		ranked[typed] = await names();
		step(`"${typed}" lists: ${ranked[typed].slice(0, 5).join(', ')}`);
	}
	await search.fill('');
	step(`typing "${query}" into the node panel search`);
	await search.pressSequentially(query, { delay: 50 });
	await panel
		.locator('[data-test-id="node-creator-item-name"]')
		.first()
		.waitFor({ state: 'visible', timeout: 60_000 })
		.catch(() => {});
	// Let the list settle after the last keystroke.
	await page.waitForTimeout(1_000);
	const listed = await names();
	step(`listed: ${listed.join(', ') || 'nothing'}`);

	// n8n shows an action node and the trigger of the same app as one entry; opening it lists
	// the trigger's events under Triggers and the action node's operations under Actions.
	let opened;
	const entry = panel
		.locator('[data-test-id="node-creator-item-name"]', { hasText: /^\s*Lead Conversations\s*$/ })
		.first();
	if (await entry.isVisible()) {
		await entry.click();
		const categories = panel.locator('[data-test-id="node-creator-category-item"]');
		await categories.first().waitFor({ state: 'visible', timeout: 60_000 });
		// A section's items are the names that appear or vanish when its header is clicked.
		const sections = {};
		for (const title of (await categories.allTextContents()).map((text) => text.trim())) {
			const header = categories.filter({ hasText: title }).first();
			const before = await names();
			await header.click();
			await page.waitForTimeout(1_000);
			const after = await names();
			const items = [
				...after.filter((name) => !before.includes(name)),
				...before.filter((name) => !after.includes(name)),
			];
			if (after.length < before.length) {
				await header.click();
				await page.waitForTimeout(500);
			}
			sections[title] = items.filter((name) => name !== 'Lead Conversations');
		}
		opened = { name: 'Lead Conversations', sections };
		step(`opened: ${JSON.stringify(sections)}`);
	}
	if (screenshot) await page.screenshot({ path: resolve(screenshot) });
	process.stdout.write(`${JSON.stringify({ query, listed, opened, nodeTypes, ranked })}\n`);
} catch (error) {
	if (screenshot && page) {
		await page.screenshot({ path: resolve(screenshot) }).catch(() => {});
		step(`failed; the page as it was: ${resolve(screenshot)}`);
	}
	throw error;
} finally {
	await browser.close();
}
