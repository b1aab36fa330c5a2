import { spawn, type ChildProcess } from 'child_process';
import { createConnection } from 'net';

import { stopProcessGroup, waitFor } from '../real-n8n/processes';
import { freePort } from '../support/ports';

export interface RunningRedis {
	port: number;
	pid: number;
	stop(): Promise<void>;
}

/** One PING over a raw socket: resolves true when Redis answers PONG. */
export function pingRedis(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = createConnection({ host: '127.0.0.1', port });
		const done = (ok: boolean) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(2000, () => done(false));
		socket.on('error', () => done(false));
		socket.on('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
		socket.on('connect', () => socket.write('PING\r\n'));
	});
}

/** Redis in the foreground of a child process of ours, loopback only, no persistence. */
export async function startRedis(binary: string): Promise<RunningRedis> {
	const port = await freePort();
	const child: ChildProcess = spawn(
		binary,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--protected-mode',
			'yes',
			'--daemonize',
			'no',
			'--loglevel',
			'warning',
		],
		{ detached: true, stdio: 'ignore' },
	);
	await waitFor(
		`redis-server on port ${port}`,
		async () => {
			if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
			return (await pingRedis(port)) ? true : undefined;
		},
		{ timeoutMs: 20_000, intervalMs: 100 },
	);
	return {
		port,
		pid: child.pid!,
		stop: () => stopProcessGroup(child, 5_000),
	};
}
