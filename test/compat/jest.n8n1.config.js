/**
 * The engine test suite a second time, against the last n8n 1.x engine (n8n-core 1.122.48 with
 * n8n-workflow 1.120.31, the engine of n8n 1.123), installed in test/compat/n8n1 by
 * test/compat/install.mjs. Run it with `npm run test:n8n1` (see test/compat/README.md).
 *
 * Same test files (less those that never load n8n), setup and transform as the main config. The
 * resolver (test/compat/resolver.js) takes n8n-workflow, n8n-core and n8n-core's @n8n packages
 * from the 1.x install: the nodes and the credential (which import n8n-workflow), the harness and
 * the tests all load the one 1.x copy that the 1.x engine itself uses.
 * @type {import('jest').Config}
 */
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const base = require('../../jest.config.js');
const { engineModules } = require('./paths');

if (!existsSync(join(engineModules, 'n8n-core', 'package.json'))) {
	throw new Error(
		'The n8n 1.x engine is not installed: run `npm run test:n8n1`, which installs it first.',
	);
}

module.exports = {
	...base,
	rootDir: '../..',
	displayName: 'n8n 1.x',
	roots: ['<rootDir>/test'],
	testPathIgnorePatterns: [
		'/node_modules/',
		// The service model's own tests: the sandbox never loads n8n.
		'<rootDir>/test/sandbox/',
		// Checks of package.json, the build layout and the icons: no engine involved.
		'<rootDir>/test/tooling/',
		// The real-n8n suite has a config and an install of its own.
		'<rootDir>/test/e2e/',
	],
	modulePathIgnorePatterns: ['<rootDir>/harness/real-n8n/install/'],
	resolver: '<rootDir>/test/compat/resolver.js',
	setupFiles: [...base.setupFiles, '<rootDir>/test/compat/setup-n8n1.ts'],
};
