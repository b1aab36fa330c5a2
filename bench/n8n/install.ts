// The real n8n of the end-to-end suite (harness/real-n8n/install: Node 24 + n8n) with this package
// installed as a community package, for the measures that must run in the product itself.

import { execFileSync } from 'child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { installCommunityPackage } from '../../harness/real-n8n/community-package';
import { n8nCli } from '../../harness/real-n8n/n8n-cli';
import { installDir, n8nBin, nodeBin, packageName, repoRoot } from '../../harness/real-n8n/paths';
import { runCommand } from '../../harness/real-n8n/processes';

/** Why the real n8n cannot be used here, or undefined when it can. */
export function realN8nUnavailable(): string | undefined {
	if (!existsSync(n8nBin) || !existsSync(nodeBin)) {
		return (
			'the real n8n of the end-to-end suite is not installed (harness/real-n8n/install). ' +
			'Run `node harness/real-n8n/install-n8n.mjs` once, then `BENCH_ONLY=realN8n npm run bench`.'
		);
	}
	return undefined;
}

export function n8nVersions(): { n8n: string; node: string } {
	let n8n = 'unknown';
	try {
		n8n = (
			JSON.parse(readFileSync(join(installDir, 'node_modules', 'n8n', 'package.json'), 'utf8')) as {
				version: string;
			}
		).version;
	} catch {
		// Reported as unknown.
	}
	return { n8n, node: execFileSync(nodeBin, ['--version']).toString().trim().replace(/^v/, '') };
}

function copyIcons(from: string, to: string): void {
	for (const entry of readdirSync(from, { withFileTypes: true })) {
		const path = join(from, entry.name);
		if (entry.isDirectory()) copyIcons(path, join(to, entry.name));
		else if (/\.(svg|png)$/.test(entry.name)) {
			mkdirSync(to, { recursive: true });
			cpSync(path, join(to, entry.name));
		}
	}
}

/**
 * Builds the package into a folder of its own and packs it as `npm pack` lays it out
 * (`package/…`). The shared dist/ is left alone: other work on the same clone may be using it.
 */
export async function packPrivately(workDir: string): Promise<string> {
	const packageDir = join(workDir, 'package');
	const run = async (command: string, args: string[], cwd: string) => {
		const result = await runCommand(command, args, { cwd, timeoutMs: 300_000 });
		if (result.code !== 0) {
			throw new Error(`${command} ${args.join(' ')}: ${result.stdout}\n${result.stderr}`);
		}
	};
	const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
	const dist = join(packageDir, 'dist');
	await run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', dist], repoRoot);
	for (const folder of ['nodes', 'credentials', 'icons']) {
		copyIcons(join(repoRoot, folder), join(dist, folder));
	}
	cpSync(join(repoRoot, 'package.json'), join(packageDir, 'package.json'));
	const tarball = join(workDir, 'package.tgz');
	await run('tar', ['-czf', tarball, '-C', workDir, 'package'], workDir);
	return tarball;
}

let packed: Promise<string> | undefined;

/**
 * The tarball every real-n8n measure installs: `LC_E2E_TARBALL` when given, else the package
 * packed once per bench run (the measures of one run measure the same build).
 */
export function packageTarball(): Promise<string> {
	if (process.env.LC_E2E_TARBALL) return Promise.resolve(process.env.LC_E2E_TARBALL);
	if (!packed) {
		const dir = mkdtempSync(join(tmpdir(), 'lc-bench-pack-'));
		process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
		packed = packPrivately(dir);
	}
	return packed;
}

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: Record<string, string>;
}

/** Installs the packed package and stores the credentials, as a user would have set them up. */
export async function prepareN8nUserFolder(
	userFolder: string,
	tarball: string,
	credentials: StoredCredential[],
): Promise<void> {
	await installCommunityPackage(userFolder, tarball);
	const file = join(userFolder, 'bench-credentials.json');
	writeFileSync(file, JSON.stringify(credentials));
	await n8nCli(userFolder, ['import:credentials', `--input=${file}`]);
}

/**
 * The newest version of one of the package's nodes, as n8n's editor gives a freshly added node,
 * read from the compiled description (the package cannot be required from outside n8n).
 */
export function newestNodeVersion(userFolder: string, nodeFile: string): number {
	const file = join(
		userFolder,
		'.n8n',
		'nodes',
		'node_modules',
		packageName,
		'dist',
		'nodes',
		nodeFile,
	);
	const source = readFileSync(file, 'utf8');
	const defaultVersion = /defaultVersion:\s*([\d.]+)/.exec(source);
	if (defaultVersion) return Number(defaultVersion[1]);
	const version = /\bversion:\s*(\[[^\]]*\]|[\d.]+)/.exec(source);
	if (!version) return 1;
	return Math.max(
		...version[1]
			.replace(/[[\]\s]/g, '')
			.split(',')
			.map(Number),
	);
}
