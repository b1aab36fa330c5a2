import { existsSync, mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { buildAndPack } from '../../harness/real-n8n/community-package';
import { n8nBin, nodeBin } from '../../harness/real-n8n/paths';

/**
 * Once per run: checks that the n8n install exists, then builds and packs the package exactly as
 * it would be published. Specs read the tarball's path and a scratch folder from the environment.
 */
export default async function globalSetup(): Promise<void> {
	if (!existsSync(n8nBin) || !existsSync(nodeBin)) {
		throw new Error(
			'n8n is not installed for the end-to-end suite: run `node harness/real-n8n/install-n8n.mjs` ' +
				'(or `npm run test:e2e`, which does it first).',
		);
	}
	const workDir = mkdtempSync(join(tmpdir(), 'lc-e2e-'));
	process.env.LC_E2E_WORK_DIR = workDir;
	if (process.env.LC_E2E_TARBALL) {
		// A tarball made elsewhere (for example the one about to be published) is tested as is.
		process.stdout.write(`\n[e2e] testing ${process.env.LC_E2E_TARBALL}\n`);
		return;
	}
	const started = Date.now();
	process.env.LC_E2E_TARBALL = await buildAndPack(workDir);
	process.stdout.write(
		`\n[e2e] packed ${process.env.LC_E2E_TARBALL} in ${Math.round((Date.now() - started) / 1000)} s\n`,
	);
}
