import { mkdirSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { outputDir } from './common';

// n8n-core keeps an instance config (encryption key) in its user folder, ~/.n8n by default. The
// demo must leave a developer's own n8n setup alone, so it gets a folder of its own. Imported
// before anything that loads n8n-core.
export const demoUserFolder = mkdtempSync(join(tmpdir(), 'lc-demo-n8n-'));
process.env.N8N_USER_FOLDER = demoUserFolder;
process.on('exit', () => rmSync(demoUserFolder, { recursive: true, force: true }));

// n8n 2 lets its file nodes reach only the folders of N8N_RESTRICT_FILE_ACCESS_TO (by default
// ~/.n8n-files); the demo's sheet lives in demo-output/, emptied at every start.
rmSync(outputDir, { recursive: true, force: true });
mkdirSync(outputDir, { recursive: true });
process.env.N8N_RESTRICT_FILE_ACCESS_TO = outputDir;
