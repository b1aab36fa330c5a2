// Where the n8n 1.x engine is installed; shared by the jest config, its resolver and the installer.
const { join, resolve } = require('node:path');

const repoRoot = resolve(__dirname, '..', '..');
const installDir = join(__dirname, 'n8n1');
const engineModules = join(installDir, 'node_modules');

module.exports = { repoRoot, installDir, engineModules };
