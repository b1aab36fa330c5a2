import type { RunningSandbox, SandboxOptions } from '../../sandbox/contract';

export type { RunningSandbox, SandboxOptions };

/** Starts the service model on a free loopback port (tests close it in afterAll). */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	// Loaded on demand so that suites which never start the sandbox do not compile it.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { startSandbox } = require('../../sandbox') as {
		startSandbox(options?: SandboxOptions): Promise<RunningSandbox>;
	};
	return await startSandbox({ port: 0, ...options });
}
