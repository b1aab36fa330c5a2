#!/usr/bin/env node
// Installs the n8n 1.x engine the compatibility run uses (test/compat/n8n1: n8n-core and
// n8n-workflow as pinned in its package.json and lock) in a folder of its own, apart from the
// package's dependencies.
//
// A stamp file holds a hash of everything that decides the result: the folder's package.json,
// lock and .npmrc, and this script. `npm ci` runs only when that hash changed since the last
// install (or the install is missing), so a second run returns at once.
// Usage: node test/compat/install.mjs [--force]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const installDir = join(dirname(fileURLToPath(import.meta.url)), 'n8n1');
const stampFile = join(installDir, '.installed-stamp');
const inputs = ['package.json', 'package-lock.json', '.npmrc'].map((file) =>
	join(installDir, file),
);

function log(message) {
	process.stdout.write(`[n8n1-install] ${message}\n`);
}

function fingerprint() {
	const hash = createHash('sha256');
	for (const file of [...inputs, fileURLToPath(import.meta.url)]) {
		hash.update(file);
		hash.update(existsSync(file) ? readFileSync(file) : 'missing');
	}
	return hash.digest('hex');
}

const installedVersion = (name) => {
	const manifest = join(installDir, 'node_modules', name, 'package.json');
	return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
};

function describeInstall() {
	return `n8n-core ${installedVersion('n8n-core')}, n8n-workflow ${installedVersion('n8n-workflow')}`;
}

function upToDate() {
	if (!existsSync(stampFile) || installedVersion('n8n-core') === undefined) return false;
	return readFileSync(stampFile, 'utf8').trim() === fingerprint();
}

export function ensureInstalled({ force = false } = {}) {
	if (!force && upToDate()) {
		log(`up to date (${describeInstall()})`);
		return;
	}
	const started = Date.now();
	rmSync(stampFile, { force: true });
	// Install scripts stay off (the folder's .npmrc): nothing in the engine needs a native build.
	const args = ['ci', '--no-audit', '--no-fund'];
	log(`$ npm ${args.join(' ')}   (in ${installDir})`);
	const result = spawnSync('npm', args, { cwd: installDir, stdio: 'inherit' });
	if (result.status !== 0) {
		throw new Error(`npm ${args.join(' ')} failed with exit code ${result.status}`);
	}
	writeFileSync(stampFile, `${fingerprint()}\n`);
	log(`installed ${describeInstall()} in ${Math.round((Date.now() - started) / 1000)} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	try {
		ensureInstalled({ force: process.argv.includes('--force') });
	} catch (error) {
		process.stderr.write(`[n8n1-install] ${error.message}\n`);
		process.exit(1);
	}
}
