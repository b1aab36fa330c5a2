import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// n8n-core writes an instance config (encryption key) under the user folder: keep it out of $HOME.
if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'lc-n8n-'));
}

// n8n 1.x warns through the node's logger that the config file it just wrote is readable by
// others; tests that assert a node logged no warning must not see n8n's own notice.
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS ??= 'false';
