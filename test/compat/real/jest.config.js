/**
 * The compatibility suite (`npm run test:compat`, see test/compat/README.md): the packed package in
 * a real n8n of another line than the end-to-end suite's, by default n8n 1.123.x. run.mjs installs
 * the lines asked for and runs this config once per line (LC_N8N_INSTALL names the install).
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: '../../..',
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/compat/real'],
	testMatch: ['**/*.compat.ts'],
	// The n8n installs are gigabytes of node_modules: never crawl them.
	modulePathIgnorePatterns: ['<rootDir>/harness/real-n8n/install'],
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	// The same set-up as the end-to-end suite: the install is there, the package packed once.
	globalSetup: '<rootDir>/test/e2e/global-setup.ts',
	globalTeardown: '<rootDir>/test/e2e/global-teardown.ts',
	maxWorkers: 1,
	testTimeout: 240_000,
	reporters: ['default', '<rootDir>/test/compat/real/table-reporter.js'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }],
	},
};
