import { rmSync } from 'fs';

/** Removes the scratch folder (user folders, logs, tarball) unless LC_E2E_KEEP=1 asks to keep it. */
export default async function globalTeardown(): Promise<void> {
	const workDir = process.env.LC_E2E_WORK_DIR;
	if (!workDir) return;
	if (process.env.LC_E2E_KEEP === '1') {
		process.stdout.write(`[e2e] kept ${workDir}\n`);
		return;
	}
	rmSync(workDir, { recursive: true, force: true });
}
