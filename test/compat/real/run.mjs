#!/usr/bin/env node
// `npm run test:compat [-- install-1x install]`: for each install of harness/real-n8n named (default:
// install-1x, n8n 1.123.x), installs it if needed and runs the compatibility suite on it, then prints
// one line per check and n8n version. Exit code 1 when any check failed on any line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureInstalled } from '../../../harness/real-n8n/install-n8n.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..', '..');
const { formatTable } = createRequire(import.meta.url)('./table-reporter.js');

const folders = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const scratch = mkdtempSync(join(tmpdir(), 'lc-compat-'));
const records = [];
let failed = false;
for (const folder of folders.length ? folders : ['install-1x']) {
	ensureInstalled({ folder });
	const results = join(scratch, `${folder}.json`);
	const run = spawnSync(
		join(repoRoot, 'node_modules', '.bin', 'jest'),
		['-c', 'test/compat/real/jest.config.js'],
		{
			cwd: repoRoot,
			stdio: 'inherit',
			env: { ...process.env, LC_N8N_INSTALL: folder, LC_COMPAT_RESULTS: results },
		},
	);
	if (run.status !== 0) failed = true;
	if (existsSync(results)) records.push(JSON.parse(readFileSync(results, 'utf8')));
	else
		records.push({
			version: folder,
			seconds: 0,
			checks: [{ check: 'run', status: 'failed', seconds: 0 }],
		});
}
rmSync(scratch, { recursive: true, force: true });
process.stdout.write(
	`\nCompatibility, one line per check and n8n version:\n${formatTable(records)}\n`,
);
const counts = records
	.flatMap((r) => r.checks)
	.reduce(
		(sum, c) => ({
			passed: sum.passed + (c.status === 'passed'),
			failed: sum.failed + (c.status !== 'passed'),
		}),
		{ passed: 0, failed: 0 },
	);
process.stdout.write(`${counts.passed} passed, ${counts.failed} failed\n`);
process.exit(failed || counts.failed > 0 ? 1 : 0);
