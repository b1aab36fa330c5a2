// What the editor scripts share: their command-line options, and headless Chromium (Debian's
// `chromium` package, driven by playwright-core from the n8n install) signed in to n8n's editor.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(repoRoot, 'harness', 'real-n8n', 'install', 'package.json'));
const { chromium } = require('playwright-core');

/** The owner the development and end-to-end set-ups create. */
export const OWNER = { email: 'owner@dealership.test', password: 'Dealership-e2e-1' };

/** The value after `--name` on the command line, or `fallback`. */
export function option(name, fallback) {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : fallback;
}

/** Headless Chromium that accepts the self-signed certificate of a local n8n. */
export async function launchChromium() {
	return await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: ['--no-sandbox', '--ignore-certificate-errors'],
	});
}

/** Signs in on the editor at `url` and waits until it has left the sign-in page. */
export async function signIn(page, url, { email, password }, timeoutMs) {
	await page.goto(`${url}/signin`, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
	await page.locator('input[type="email"], input[name="emailOrLdapLoginId"]').first().fill(email);
	await page.locator('input[type="password"]').first().fill(password);
	await page.keyboard.press('Enter');
	await page.waitForURL((target) => !target.pathname.startsWith('/signin'), {
		timeout: timeoutMs,
	});
}
