#!/usr/bin/env node
// Takes the README's picture of the action node's panel in n8n's editor, with headless Chromium
// (Debian's `chromium` package) driven by playwright-core from the n8n install.
//
// Start the editor first (`npm run dev`), then:
//   node scripts/e2e/screenshot-node-panel.mjs [--url http://localhost:5678] [--out docs/node-panel.png]
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { OWNER, launchChromium, option, repoRoot, signIn } from './editor.mjs';

const url = option('url', 'http://localhost:5678');
const out = resolve(repoRoot, option('out', 'docs/node-panel.png'));
const workflowId = option('workflow', 'LcExampleLeadsCsv');
// "New leads since last run": Lead → Get Many with its filters and options.
const nodeId = option('node', 'a1000000-0000-4000-8000-000000000003');

const browser = await launchChromium();
try {
	const page = await browser.newPage({
		viewport: { width: 1440, height: 900 },
		deviceScaleFactor: 1,
	});
	await signIn(page, url, OWNER, 30_000);

	await page.goto(`${url}/workflow/${workflowId}/${nodeId}`);
	const panel = page.locator('[data-test-id="ndv"]');
	await panel.waitFor({ state: 'visible', timeout: 30_000 });
	// Run the step (a manual run: the "since last run" mark stays where it is) to show real rows.
	await panel.locator('[data-test-id="node-execute-button"]').first().click();
	await panel.locator('table').first().waitFor({ timeout: 30_000 });
	// Let the "Node executed successfully" toast go away before the picture.
	await page
		.locator('.el-notification')
		.first()
		.waitFor({ state: 'hidden', timeout: 15_000 })
		.catch(() => {});
	await page.waitForTimeout(500);
	mkdirSync(dirname(out), { recursive: true });
	await page.screenshot({ path: out });
	process.stdout.write(`saved ${out}\n`);
} catch (error) {
	const pages = browser.contexts().flatMap((context) => context.pages());
	if (pages[0]) await pages[0].screenshot({ path: `${out}.failed.png` });
	throw error;
} finally {
	await browser.close();
}
