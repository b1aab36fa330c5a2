#!/usr/bin/env node
// Opens the speed-to-lead dashboard (examples/speed-to-lead-dashboard.json) in headless Chromium
// as a manager would, takes its picture and prints, as JSON, the figures of every advisor row the
// browser shows (the rows' data attributes) with the page's visible text.
//
//   node scripts/e2e/dashboard-page.mjs --url 'http://localhost:5678/webhook/speed-to-lead?week=2026-W48' --out docs/speed-to-lead-dashboard.png
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { launchChromium, option, repoRoot } from './editor.mjs';

const url = option('url', 'http://localhost:5678/webhook/speed-to-lead');
const out = resolve(repoRoot, option('out', 'docs/speed-to-lead-dashboard.png'));

const browser = await launchChromium();
try {
	const page = await browser.newPage({
		viewport: { width: 1140, height: 400 },
		deviceScaleFactor: 1,
	});
	const response = await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
	await page.locator('h1').waitFor({ timeout: 30_000 });
	const rows = await page
		.locator('tr[data-advisor]')
		.evaluateAll((trs) => trs.map((tr) => ({ ...tr.dataset })));
	const text = await page.locator('body').innerText();
	mkdirSync(dirname(out), { recursive: true });
	await page.screenshot({ path: out, fullPage: true });
	process.stdout.write(
		`${JSON.stringify({ status: response?.status(), rows, text, picture: out })}\n`,
	);
} finally {
	await browser.close();
}
