/**
 * The reliability and security suite (see test/reliability/README.md): faults survived, bad input
 * refused, nothing lost or leaked. Kept apart from the main jest config: its files are named
 * *.reliability.ts, they measure figures over thousands of requests and deliveries, and a
 * table of every figure is printed once all of them ran.
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: '../..',
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/reliability'],
	testMatch: ['**/*.reliability.ts'],
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	globalSetup: '<rootDir>/test/reliability/support/globalSetup.ts',
	globalTeardown: '<rootDir>/test/reliability/support/globalTeardown.ts',
	// Rate-limit windows and time-outs are measured in real time: one file at a time keeps the
	// figures steady and leaves the second core to the machine.
	maxWorkers: 1,
	testTimeout: 300_000,
	slowTestThreshold: 60,
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }],
	},
};
