import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { FIGURES_FILE_VARIABLE } from './figures';

/** A fresh figures file per run, outside the repository; the test processes inherit its path. */
export default function globalSetup(): void {
	const directory = mkdtempSync(join(tmpdir(), 'lc-reliability-'));
	process.env[FIGURES_FILE_VARIABLE] = join(directory, 'figures.jsonl');
	process.env.RELIABILITY_STARTED_AT = String(Date.now());
}
