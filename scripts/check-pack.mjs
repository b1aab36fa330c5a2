#!/usr/bin/env node
// What `npm publish` would ship, checked against what n8n loads (run after `npm run build`):
// `npm pack --dry-run` must list exactly package.json, README.md, LICENSE and, under dist/,
//   - the entry points registered in package.json "n8n" and every file they require, followed
//     from the built JavaScript (so a compiled file nothing loads is refused too);
//   - the codex file (X.node.json) beside each registered node;
//   - the icons the built files reference with `file:` paths.
// Anything missing or extra fails, and the list is printed. Exits non-zero on failure.
// Usage: node scripts/check-pack.mjs [package folder, default: this repository]
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = [...packageJson.n8n.nodes, ...packageJson.n8n.credentials];

const toRepoPath = (absolute) => relative(root, absolute).split('\\').join('/');

/** Every file n8n reads when it loads the registered entry points. */
function filesN8nLoads() {
	const expected = new Set(['package.json', 'README.md', 'LICENSE']);
	const queue = entries.map((entry) => join(root, entry));
	const missing = [];
	while (queue.length > 0) {
		const file = queue.shift();
		const path = toRepoPath(file);
		if (expected.has(path)) continue;
		if (!existsSync(file)) {
			missing.push(path);
			continue;
		}
		expected.add(path);
		const source = readFileSync(file, 'utf8');
		for (const [, request] of source.matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)) {
			const target = resolve(dirname(file), request);
			queue.push(existsSync(`${target}.js`) ? `${target}.js` : join(target, 'index.js'));
		}
		for (const [, icon] of source.matchAll(/['"]file:([^'"]+\.(?:svg|png))['"]/g)) {
			const target = resolve(dirname(file), icon);
			if (existsSync(target)) expected.add(toRepoPath(target));
			else missing.push(`${toRepoPath(target)} (icon of ${path})`);
		}
	}
	for (const node of packageJson.n8n.nodes) {
		const codex = node.replace(/\.js$/, '.json');
		if (existsSync(join(root, codex))) expected.add(codex);
		else missing.push(`${codex} (codex of ${node})`);
	}
	return { expected, missing };
}

const result = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8' });
if (result.status !== 0) {
	process.stdout.write(`npm pack --dry-run exited with ${result.status}\n${result.stderr}\n`);
	process.exit(1);
}
const [packed] = JSON.parse(result.stdout.slice(result.stdout.indexOf('[')));
const shipped = new Set(packed.files.map((file) => posix.normalize(file.path)));
const { expected, missing } = filesN8nLoads();

const problems = [
	...missing.map((path) => `not built: ${path} (run npm run build first)`),
	...[...expected]
		.filter((path) => !shipped.has(path))
		.map((path) => `not in the tarball: ${path}`),
	...[...shipped]
		.filter((path) => !expected.has(path))
		.map((path) => `in the tarball but n8n never loads it: ${path}`),
];

process.stdout.write(
	`== npm pack --dry-run: ${packed.name}@${packed.version}, ${shipped.size} files, ${(packed.size / 1024).toFixed(1)} kB packed\n`,
);
for (const path of [...shipped].sort()) process.stdout.write(`  ${path}\n`);
if (problems.length > 0) {
	for (const problem of problems) process.stdout.write(`FAIL: ${problem}\n`);
	process.exit(1);
}
process.stdout.write(
	'ok: exactly package.json, README.md, LICENSE and the dist/ files n8n loads (entry points, what they require, codex files, icons)\n',
);
