// What editor-review.mjs does with the editor's page: the editor's own REST calls, the text a
// person sees, opening and closing a node's panel, and pictures of it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The text a person sees in an element, input values and placeholders included. */
export async function visibleText(locator) {
	return await locator.evaluate((element) => {
		// An empty input shows its placeholder ("Add Option" is a select's placeholder).
		const values = [...element.querySelectorAll('input, textarea')]
			.map((input) => input.value || input.placeholder)
			.filter((value) => value);
		return `${element.innerText}\n${values.join('\n')}`;
	});
}

/**
 * The editor at `url` in `page`: `workflow()` gives the id of the workflow the panels open in,
 * pictures go to `outDir` and are noted in `seen.screenshots`.
 */
export function reviewPage({ page, url, outDir, seen, step, workflow }) {
	async function rest(method, path, data) {
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

	/** A cold editor on a busy machine takes minutes to load its files. */
	async function openWorkflow() {
		await page.goto(`${url}/workflow/${workflow()}`, {
			waitUntil: 'domcontentloaded',
			timeout: 240_000,
		});
	}

	async function openNode(name) {
		await openWorkflow();
		const canvasNode = page
			.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`)
			.first();
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

	/**
	 * Opens the dropdown of the parameter `name` in `ndv` and measures its option `optionName`:
	 * the text shown, the description's full text, and the parts that cut their text (more of it
	 * than the box shows). Closes the dropdown again.
	 */
	async function measureOption(ndv, name, optionName) {
		const byId = ndv.locator(`[data-test-id="parameter-input-${name}"]`).first();
		const input = (await byId.count())
			? byId
			: ndv.locator('[data-test-id="parameter-item"]', { hasText: name }).locator('input').first();
		await input.click();
		const item = page.locator('.el-select-dropdown__item:visible', { hasText: optionName }).first();
		await item.waitFor({ state: 'visible', timeout: 30_000 });
		await page.waitForTimeout(500);
		const measured = await item.evaluate((li) => {
			const cut = [li, ...li.querySelectorAll('*')]
				.filter((e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1)
				.map((e) => `${e.tagName.toLowerCase()}.${String(e.className).split(' ').join('.')}`);
			const description = li.querySelector('.option-description');
			return {
				shown: li.innerText.trim(),
				description: description?.textContent?.trim() ?? '',
				cut,
			};
		});
		await page.keyboard.press('Escape');
		await page.waitForTimeout(300);
		return measured;
	}

	return { rest, openWorkflow, openNode, closeNode, shoot, measureOption };
}
