import { startTestSandbox, type RunningSandbox, type SandboxOptions } from '../../harness/engine';

/**
 * One sandbox per test file. By default it is reset before each test; `resetEach: false` keeps
 * one seed for the whole file. Faults and the request log are cleared before each test either way.
 */
export function useSandbox(options: SandboxOptions = {}, { resetEach = true } = {}) {
	const context = {} as { sandbox: RunningSandbox };
	beforeAll(async () => {
		context.sandbox = await startTestSandbox(options);
	});
	beforeEach(() => {
		if (resetEach) context.sandbox.control.reset({ leads: options.leads });
		context.sandbox.control.clearFaults();
		context.sandbox.control.clearRequests();
	});
	afterAll(async () => {
		await context.sandbox.close();
	});
	return context;
}

/** The action node's credential for the sandbox, with the full key unless told another. */
export function credentialsOf(sandbox: RunningSandbox, key: keyof RunningSandbox['keys'] = 'full') {
	return { apiKey: sandbox.keys[key], baseUrl: sandbox.baseUrl };
}
