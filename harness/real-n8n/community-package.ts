import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { packageName, repoRoot } from './paths';
import { runCommand, tail } from './processes';

async function npm(args: string[], cwd: string, timeoutMs: number): Promise<string> {
	const result = await runCommand('npm', args, { cwd, timeoutMs, env: process.env });
	if (result.code !== 0) {
		throw new Error(
			`npm ${args.join(' ')} failed:\n${tail(result.stdout)}\n${tail(result.stderr)}`,
		);
	}
	return result.stdout;
}

/** Builds the package and packs it exactly as `npm publish` would; returns the tarball's path. */
export async function buildAndPack(destination: string): Promise<string> {
	await npm(['run', 'build'], repoRoot, 300_000);
	const packed = JSON.parse(
		await npm(['pack', '--json', '--pack-destination', destination], repoRoot, 120_000),
	) as Array<{ filename: string }>;
	return join(destination, packed[0].filename);
}

/**
 * Installs a packed tarball into an n8n user folder the way n8n's community-package installer
 * does: unpacked into `.n8n/nodes/node_modules/<name>`, without its dev, peer and optional
 * dependencies (`require('n8n-workflow')` must resolve to n8n's own copy), recorded in
 * `.n8n/nodes/package.json`. n8n scans that folder at every start, CLI commands included.
 */
export async function installCommunityPackage(userFolder: string, tarball: string): Promise<void> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const target = join(nodesDir, 'node_modules', packageName);
	rmSync(target, { recursive: true, force: true });
	mkdirSync(target, { recursive: true });
	const untar = await runCommand('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], {
		timeoutMs: 60_000,
	});
	if (untar.code !== 0) throw new Error(`Cannot unpack ${tarball}: ${untar.stderr}`);

	const manifestPath = join(target, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
	for (const field of ['devDependencies', 'peerDependencies', 'optionalDependencies']) {
		delete manifest[field];
	}
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	if (manifest.dependencies && Object.keys(manifest.dependencies).length > 0) {
		throw new Error('The package declares runtime dependencies; community packages must not');
	}

	const recordPath = join(nodesDir, 'package.json');
	let record: { name: string; private: boolean; dependencies: Record<string, string> };
	try {
		record = JSON.parse(readFileSync(recordPath, 'utf8'));
	} catch {
		record = { name: 'installed-nodes', private: true, dependencies: {} };
	}
	record.dependencies[packageName] = String(manifest.version);
	writeFileSync(recordPath, JSON.stringify(record, null, 2));
}

/** A fresh n8n user folder inside the run's scratch folder (removed at the end of the run). */
export function makeUserFolder(label: string): string {
	return mkdtempSync(join(process.env.LC_E2E_WORK_DIR ?? tmpdir(), `${label}-`));
}
