import { spawn, type ChildProcess, type SpawnOptions } from 'child_process';

export interface CommandResult {
	code: number | null;
	/** The signal that ended the command, when one did (its code is then null). */
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	durationMs: number;
}

/** Runs a command to its end, with a hard time limit, and keeps everything it printed. */
export function runCommand(
	command: string,
	args: string[],
	options: SpawnOptions & { timeoutMs: number; input?: string },
): Promise<CommandResult> {
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(
				new Error(
					`${command} ${args.join(' ')} did not finish within ${options.timeoutMs} ms\n` +
						`stdout:\n${tail(stdout)}\nstderr:\n${tail(stderr)}`,
				),
			);
		}, options.timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr, durationMs: Date.now() - started });
		});
		// A child that exits before reading its input closes the pipe (EPIPE); its exit code and
		// output say what happened, so the write error must not end this process.
		child.stdin!.on('error', () => undefined);
		child.stdin!.end(options.input ?? '');
	});
}

/** The last lines of a long output, for error messages that stay readable. */
export function tail(text: string, lines = 40): string {
	return text.split('\n').slice(-lines).join('\n');
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined> | T | undefined,
	{ timeoutMs = 30_000, intervalMs = 250 } = {},
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let lastError: unknown;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined) return value;
		} catch (error) {
			lastError = error;
		}
		if (Date.now() > deadline) {
			const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
		}
		await new Promise((r) => setTimeout(r, intervalMs));
	}
}

/**
 * Stops a child process and everything it started: SIGTERM to its process group, SIGKILL after
 * `graceMs`. The child must have been spawned with `detached: true` (its own group).
 */
export async function stopProcessGroup(child: ChildProcess, graceMs = 10_000): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const signal = (name: NodeJS.Signals) => {
		try {
			process.kill(-child.pid!, name);
		} catch {
			// Already gone.
		}
	};
	signal('SIGTERM');
	const timer = setTimeout(() => signal('SIGKILL'), graceMs);
	await exited;
	clearTimeout(timer);
}
