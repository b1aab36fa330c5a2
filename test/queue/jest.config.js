/**
 * The queue-mode suite (see test/queue/README.md): n8n 2.41.1 as one main, two workers and two
 * webhook processes behind a round-robin balancer, sharing Redis and Postgres, the packed
 * package installed in each. One cluster serves the whole suite (one spec file, in order).
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: '../..',
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/queue/specs'],
	testMatch: ['**/*.queue.ts'],
	modulePathIgnorePatterns: ['<rootDir>/harness/real-n8n/install/'],
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	globalSetup: '<rootDir>/test/queue/support/globalSetup.ts',
	globalTeardown: '<rootDir>/test/queue/support/globalTeardown.ts',
	maxWorkers: 1,
	// Generous for a busy machine; on a quiet one each test takes well under a minute.
	testTimeout: 480_000,
	slowTestThreshold: 120,
	verbose: true,
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }],
	},
};
