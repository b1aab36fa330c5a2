// Setup of the n8n 1.x run (jest.n8n1.config.js), once per test file, after test/setup-env.ts.

// Tells engine-aware tests (test/compat/version.test.ts) that this run is meant to be on n8n 1.x.
process.env.LEAD_CONVERSATIONS_TEST_ENGINE = 'n8n1';

// n8n 1.x's SSH tunnel pool, created with the first node context, starts a cleanup interval that
// only n8n's shutdown hook clears, so a test process would never exit; n8n 2.x unrefs that
// interval. Do what 2.x does. Nothing else in the module changes.
jest.mock('n8n-core/dist/execution-engine/ssh-clients-manager', () => {
	const actual = jest.requireActual<
		typeof import('n8n-core/dist/execution-engine/ssh-clients-manager')
	>('n8n-core/dist/execution-engine/ssh-clients-manager');
	Object.defineProperty(actual.SSHClientsManager.prototype, 'cleanupTimer', {
		configurable: true,
		set(this: object, timer: NodeJS.Timeout) {
			timer.unref();
			Object.defineProperty(this, 'cleanupTimer', {
				value: timer,
				writable: true,
				configurable: true,
			});
		},
	});
	return actual;
});
