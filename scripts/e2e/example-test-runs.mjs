#!/usr/bin/env node
// Presses Execute workflow on each example in a running n8n editor, as a person trying it would:
// once as shipped (pinned samples) and once with every pin removed. Each example is imported
// through the editor's own REST calls, opened, run from the canvas's Execute workflow button and
// stopped when it waits for an outside event (a webhook, a chat message). Prints one JSON line:
// per run the example, pinned or not, when it started and ended (ms since the epoch, for the
// service's request log), the execution's status, its error and the nodes that ran.
//
//   node scripts/e2e/example-test-runs.mjs --url http://localhost:5678 [--email E --password P]
//     [--examples a.json,b.json] [--out-dir folder]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

import { OWNER, launchChromium, option, repoRoot, signIn } from './editor.mjs';
import { reviewPage } from './review-page.mjs';

const require = createRequire(join(repoRoot, 'harness', 'real-n8n', 'install', 'package.json'));
const { parse } = require('flatted');

const url = option('url', 'http://localhost:5678');
const email = option('email', OWNER.email);
const password = option('password', OWNER.password);
const outDir = resolve(repoRoot, option('out-dir', 'docs'));
const examples = option('examples', '').split(',').filter(Boolean);
/** How long a run that waits for an outside event is left waiting before it is stopped. */
const WAIT_MS = 6_000;

const step = (text) => process.stderr.write(`[example-test-runs] ${text}\n`);

const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
page.setDefaultTimeout(60_000);
let workflowId;
const { rest } = reviewPage({ page, url, outDir, seen: {}, step, workflow: () => workflowId });
const made = [];

/** The workflow's newest execution, once it has ended; undefined while none has. */
async function endedExecution() {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const list = await rest('GET', `/executions?filter=${filter}&limit=1`);
	const [latest] = list.results ?? list;
	if (!latest || ['new', 'running', 'waiting'].includes(latest.status)) return undefined;
	const full = await rest('GET', `/executions/${latest.id}`);
	const data = typeof full.data === 'string' ? parse(full.data) : full.data;
	const result = data?.resultData ?? {};
	// Per node that ran: the IDs of its output items (a lead's, a conversation's, a row's).
	const outputs = {};
	for (const [node, taskRuns] of Object.entries(result.runData ?? {})) {
		const items = taskRuns.flatMap((taskRun) => (taskRun.data?.main ?? []).flat());
		outputs[node] = items.map((item) => item?.json?.lead_id ?? item?.json?.id ?? null);
	}
	return {
		status: latest.status,
		error: result.error?.message,
		lastNode: result.lastNodeExecuted,
		ran: Object.keys(outputs),
		outputs,
	};
}

let editorLoaded = false;

/** Opens a page of the editor through its own router once loaded: no reload of its 450 files. */
async function openInEditor(path) {
	if (!editorLoaded) {
		editorLoaded = true;
		await page.goto(`${url}${path}`, { waitUntil: 'domcontentloaded' });
		return;
	}
	const routed = await page
		.evaluate(async (target) => {
			const router = document.querySelector('#app')?.__vue_app__?.config.globalProperties.$router;
			if (!router) return false;
			await router.push(target);
			return true;
		}, path)
		.catch(() => false);
	if (!routed) await page.goto(`${url}${path}`, { waitUntil: 'domcontentloaded' });
}

/** The text of an error notification the editor shows, if any (a run refused before it starts). */
async function refusal() {
	const toast = page.locator('.el-notification[role="alert"]', {
		hasText: 'Problem running workflow',
	});
	if (
		!(await toast
			.first()
			.isVisible()
			.catch(() => false))
	)
		return undefined;
	return (await toast.first().innerText()).trim();
}

async function tryExample(file, pinned, attempt) {
	const shipped = JSON.parse(readFileSync(join(repoRoot, 'examples', file), 'utf8'));
	if (attempt === 1) {
		const workflow = await rest('POST', '/workflows', {
			name: `${shipped.name} (${pinned ? 'pinned' : 'unpinned'})`,
			nodes: shipped.nodes,
			connections: shipped.connections,
			settings: shipped.settings ?? {},
			pinData: pinned ? (shipped.pinData ?? {}) : {},
		});
		workflowId = workflow.id;
		made.push(workflowId);
	}
	const loading = Date.now();
	// A second try runs again from where the first left the page, as a person would.
	const canvas = page.locator('[data-test-id="canvas-node"]').first();
	if (attempt === 1) await openInEditor(`/workflow/${workflowId}`);
	// The router may not take the first route after signing in: then a page load does.
	if (
		!(await canvas.waitFor({ timeout: 20_000 }).then(
			() => true,
			() => false,
		))
	) {
		await page.goto(`${url}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
	}
	await canvas.waitFor({ timeout: 180_000 });
	await page.waitForTimeout(500);
	step(`${file} opened in ${Date.now() - loading} ms`);
	for (const close of await page.locator('.el-notification__closeBtn').all()) {
		await close.click().catch(() => {});
	}
	const startedAt = Date.now();
	const execute = page.locator('[data-test-id="execute-workflow-button"]').first();
	if (!(await execute.isVisible())) {
		// A chat trigger alone: the canvas offers Open chat, and only a message starts a run.
		const offered = await page.locator('button:visible').allInnerTexts();
		const run = { file, pinned, attempt, startedAt, endedAt: Date.now(), stopped: false };
		return { ...run, status: 'no Execute workflow button', ran: [], offered };
	}
	await execute.click();
	let outcome;
	const deadline = Date.now() + WAIT_MS + 60_000;
	let stopped = false;
	while (!outcome && Date.now() < deadline) {
		await page.waitForTimeout(1_000);
		outcome = await endedExecution();
		const refused = outcome ? undefined : await refusal();
		if (refused) outcome = { status: 'refused', error: refused, ran: [] };
		if (!outcome && !stopped && Date.now() - startedAt > WAIT_MS) {
			// Waiting for a webhook call or a chat message: what a person would stop.
			const stop = page.locator(
				'[data-test-id="stop-execution-waiting-for-webhook-button"], [data-test-id="stop-execution-button"]',
			);
			if (await stop.first().isVisible()) {
				await stop.first().click();
				stopped = true;
				await page.waitForTimeout(1_500);
				outcome = (await endedExecution()) ?? { status: 'stopped while waiting', ran: [] };
			}
		}
	}
	outcome ??= { status: 'no execution', ran: [] };
	const picture = join(
		outDir,
		`example-${file.replace('.json', '')}-${pinned ? 'pinned' : 'unpinned'}-${attempt}.png`,
	);
	await page.screenshot({ path: picture }).catch(() => {});
	const run = { file, pinned, attempt, startedAt, endedAt: Date.now(), stopped, ...outcome };
	step(JSON.stringify(run));
	return run;
}

const runs = [];
try {
	await signIn(page, url, { email, password }, 240_000);
	await page.evaluate(() => {
		for (const key of ['N8N_PIN_DATA_DISCOVERY_NDV', 'N8N_PIN_DATA_DISCOVERY_CANVAS'])
			window.localStorage.setItem(key, 'true');
	});
	for (const file of examples) {
		const shipped = JSON.parse(readFileSync(join(repoRoot, 'examples', file), 'utf8'));
		const hasPins = Object.keys(shipped.pinData ?? {}).length > 0;
		if (hasPins) {
			// Twice: a second try must show the same path, not stop silently.
			runs.push(await tryExample(file, true, 1));
			runs.push(await tryExample(file, true, 2));
		}
		runs.push(await tryExample(file, false, 1));
	}
	process.stdout.write(`${JSON.stringify({ runs })}\n`);
} catch (error) {
	await page.screenshot({ path: join(outDir, 'example-test-runs.failed.png') }).catch(() => {});
	step(`failed; the page as it was: ${join(outDir, 'example-test-runs.failed.png')}`);
	throw error;
} finally {
	for (const id of made) {
		await rest('POST', `/workflows/${id}/archive`).catch(() => {});
		await rest('DELETE', `/workflows/${id}`).catch(() => {});
	}
	await browser.close();
}
