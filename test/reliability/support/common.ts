import {
	startTestSandbox,
	type RunningSandbox,
	type SandboxOptions,
} from '../../../harness/engine';
import type { SecretTrace } from './trace';

/**
 * RELIABILITY_SCALE (0 < scale ≤ 1, default 1) shrinks the repeated scenarios for a quick look;
 * the figures of the issue are those of the full scale. Each scaled figure says what it ran.
 */
export const SCALE = (() => {
	const raw = Number(process.env.RELIABILITY_SCALE ?? '1');
	return Number.isFinite(raw) && raw > 0 && raw <= 1 ? raw : 1;
})();

export function scaled(full: number, minimum = 1): number {
	return Math.max(minimum, Math.round(full * SCALE));
}

export function credentialsOf(
	sandbox: RunningSandbox,
	key: keyof RunningSandbox['keys'] = 'full',
): { apiKey: string; baseUrl: string } {
	return { apiKey: sandbox.keys[key], baseUrl: sandbox.baseUrl };
}

/** A resource locator value as n8n's editor stores it. */
export function byId(value: string) {
	return { __rl: true, mode: 'id', value };
}

/** Runs the tasks with at most `concurrency` of them at a time; results in task order. */
export async function inBatches<T>(
	tasks: Array<() => Promise<T>>,
	concurrency: number,
): Promise<T[]> {
	const results: T[] = new Array(tasks.length);
	let next = 0;
	const worker = async () => {
		while (next < tasks.length) {
			const index = next++;
			results[index] = await tasks[index]();
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
	return results;
}

export const NODE = 'Lead Conversations';

export function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The sandbox of one file of the suite, its API keys among the secrets `trace` looks for;
 * `ctx.sandbox` once `beforeAll` ran.
 */
export function useTracedSandbox(
	trace: SecretTrace,
	options: SandboxOptions = {},
): { sandbox: RunningSandbox } {
	const ctx = {} as { sandbox: RunningSandbox };
	beforeAll(async () => {
		ctx.sandbox = await startTestSandbox(options);
		trace.addApiKeys(ctx.sandbox);
	});
	afterAll(async () => {
		await ctx.sandbox.close();
	});
	return ctx;
}
