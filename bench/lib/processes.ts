// Every measure runs in a child process of its own: fresh RSS and heap, --expose-gc, and no
// state (pacing, module caches, JIT) carried from one scenario to the next. A child reports one
// JSON message to the parent and exits.

import { fork, type ChildProcess } from 'child_process';
import { join } from 'path';

/** The worker children run: the transpiled JavaScript once built, else the TypeScript source. */
let worker = {
	path: join(__dirname, '..', 'worker.ts'),
	execArgv: ['-r', 'ts-node/register/transpile-only'],
};

export function useBuiltWorker(path: string): void {
	worker = { path, execArgv: [] };
}
const OUTPUT_TAIL = 4_000;

export interface ChildOptions {
	timeoutMs?: number;
	env?: Record<string, string>;
}

interface ChildMessage {
	ok: boolean;
	result?: unknown;
	error?: string;
	/** A long-lived child (a data server) says it is listening. */
	ready?: unknown;
}

function spawnWorker(task: string, args: unknown, options: ChildOptions): ChildProcess {
	return fork(worker.path, [task, JSON.stringify(args ?? {})], {
		execArgv: ['--expose-gc', ...worker.execArgv],
		env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', ...options.env },
		stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
		serialization: 'advanced',
	});
}

function captureOutput(child: ChildProcess): () => string {
	let output = '';
	const keep = (chunk: Buffer) => {
		output = (output + chunk.toString()).slice(-OUTPUT_TAIL);
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	return () => output;
}

/** Runs one task of bench/worker.ts in a fresh process and resolves with what it reports. */
export function runInChild<T>(task: string, args: unknown, options: ChildOptions = {}): Promise<T> {
	const timeoutMs = options.timeoutMs ?? 300_000;
	return new Promise<T>((resolve, reject) => {
		const child = spawnWorker(task, args, options);
		const output = captureOutput(child);
		let message: ChildMessage | undefined;
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`${task} took longer than ${timeoutMs / 1000} s\n${output()}`));
		}, timeoutMs);
		child.on('message', (received) => {
			message = received as ChildMessage;
		});
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('exit', (code) => {
			clearTimeout(timer);
			if (message?.ok) resolve(message.result as T);
			else
				reject(
					new Error(
						`${task} failed (exit ${code}): ${message?.error ?? 'no result reported'}\n${output()}`,
					),
				);
		});
	});
}

export interface LongLivedChild<R> {
	ready: R;
	stop(): Promise<void>;
}

/** Starts a task that keeps running (a data server) until stop(); resolves once it is ready. */
export function startChild<R>(
	task: string,
	args: unknown,
	options: ChildOptions = {},
): Promise<LongLivedChild<R>> {
	const timeoutMs = options.timeoutMs ?? 120_000;
	return new Promise((resolve, reject) => {
		const child = spawnWorker(task, args, options);
		const output = captureOutput(child);
		const exited = new Promise<void>((done) => child.once('exit', () => done()));
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`${task} was not ready within ${timeoutMs / 1000} s\n${output()}`));
		}, timeoutMs);
		child.on('message', (received) => {
			const message = received as ChildMessage;
			clearTimeout(timer);
			if (!message.ok) {
				reject(new Error(`${task} failed: ${message.error}\n${output()}`));
				return;
			}
			resolve({
				ready: message.ready as R,
				stop: async () => {
					if (child.exitCode === null) child.kill('SIGTERM');
					await exited;
				},
			});
		});
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`${task} exited (${code}) before it was ready\n${output()}`));
		});
	});
}
