/**
 * The end-to-end suite: the packed package inside a real n8n (see test/e2e/README.md).
 * Kept apart from the main jest config: its specs are named *.e2e.ts and it needs the n8n
 * install that `npm run test:e2e` makes first.
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: '../..',
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e/specs'],
	testMatch: ['**/*.e2e.ts'],
	// The n8n install is 2 GiB of node_modules: never crawl it.
	modulePathIgnorePatterns: ['<rootDir>/harness/real-n8n/install/'],
	// The specs also run workflows in-process (to compare with real n8n): keep n8n-core's
	// instance config out of $HOME.
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	globalSetup: '<rootDir>/test/e2e/global-setup.ts',
	globalTeardown: '<rootDir>/test/e2e/global-teardown.ts',
	// Each spec boots n8n processes of its own; one at a time keeps two cores usable.
	maxWorkers: 1,
	testTimeout: 180_000,
	slowTestThreshold: 60,
	verbose: true,
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }],
	},
};
