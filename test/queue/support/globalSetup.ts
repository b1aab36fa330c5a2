import { join } from 'path';

import e2eGlobalSetup from '../../e2e/global-setup';
import { FIGURES_FILE_VARIABLE } from './figures';

/** Builds and packs the package once (as the e2e suite does) and names the figures file. */
export default async function globalSetup(): Promise<void> {
	await e2eGlobalSetup();
	process.env[FIGURES_FILE_VARIABLE] = join(process.env.LC_E2E_WORK_DIR!, 'queue-figures.jsonl');
}
