/**
 * Loads a package exactly as n8n-core itself resolves it. The DI container and the backend
 * logger are n8n-core's own dependencies, not ours: resolving them from n8n-core's location
 * guarantees the harness talks to the same module instances the engine uses.
 */
export function n8nCoreDependency<T>(name: string): T {
	const resolved = require.resolve(name, { paths: [require.resolve('n8n-core')] });
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(resolved) as T;
}
