import { execFile, execFileSync, spawn, type ChildProcess } from 'child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { stopProcessGroup, waitFor } from '../real-n8n/processes';
import { freePort } from '../support/ports';

export interface RunningPostgres {
	port: number;
	pid: number;
	database: string;
	user: string;
	dataDir: string;
	/** Runs SQL with psql and returns the rows as arrays of text fields. */
	query(sql: string): Promise<string[][]>;
	stop(): Promise<void>;
}

const FIELD = '\u001f';

/** The account Postgres runs as: initdb and the server refuse to run as root. */
function postgresAccount(): { uid: number; gid: number } {
	if (process.getuid?.() !== 0) return { uid: process.getuid!(), gid: process.getgid!() };
	try {
		const uid = execFileSync('id', ['-u', 'postgres'], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const gid = execFileSync('id', ['-g', 'postgres'], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
	} catch {
		throw new Error(
			"There is no postgres account to run the database as (Debian's postgresql package makes one)",
		);
	}
}

/** Runs a program to its end without stdin; rejects with its stderr when it fails. */
function run(
	file: string,
	args: string[],
	options: { uid?: number; gid?: number; cwd?: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile(
			file,
			args,
			{ ...options, timeout: options.timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
			(error, stdout, stderr) =>
				error
					? reject(new Error(`${file} failed: ${stderr.trim() || error.message}`))
					: resolve(stdout),
		);
	});
}

/**
 * A throw-away Postgres cluster: initdb into a fresh folder, trust authentication, loopback
 * only on a free port, fsync off (nothing here needs to survive a crash of the machine).
 */
export async function startPostgres(binDir: string, database = 'n8n'): Promise<RunningPostgres> {
	const account = postgresAccount();
	const dataDir = mkdtempSync(join(tmpdir(), 'lc-queue-pg-'));
	const socketDir = join(dataDir, 'socket');
	mkdirSync(socketDir);
	chownSync(dataDir, account.uid, account.gid);
	chownSync(socketDir, account.uid, account.gid);
	const cluster = join(dataDir, 'cluster');
	const asAccount = { uid: account.uid, gid: account.gid, cwd: dataDir };
	await run(
		join(binDir, 'initdb'),
		['-D', cluster, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-instructions'],
		{ ...asAccount, timeoutMs: 120_000 },
	);

	const port = await freePort();
	const child: ChildProcess = spawn(
		join(binDir, 'postgres'),
		[
			'-D',
			cluster,
			'-p',
			String(port),
			'-k',
			socketDir,
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=200',
			'-c',
			'logging_collector=off',
		],
		{ ...asAccount, detached: true, stdio: 'ignore' },
	);
	const psql = async (sql: string, db = database) => {
		const stdout = await run(
			join(binDir, 'psql'),
			[
				'-h',
				'127.0.0.1',
				'-p',
				String(port),
				'-U',
				'postgres',
				'-d',
				db,
				'-X',
				'-A',
				'-t',
				'-F',
				FIELD,
				'-v',
				'ON_ERROR_STOP=1',
				'-c',
				sql,
			],
			{ timeoutMs: 60_000, env: { ...process.env, PGCONNECT_TIMEOUT: '5' } },
		).catch((error: Error) => {
			throw new Error(`${error.message}\nSQL: ${sql}`);
		});
		return stdout
			.split('\n')
			.filter((line) => line !== '')
			.map((line) => line.split(FIELD));
	};
	const running: RunningPostgres = {
		port,
		pid: child.pid!,
		database,
		user: 'postgres',
		dataDir,
		query: (sql) => psql(sql),
		async stop() {
			// SIGINT is Postgres's fast shutdown; its process group holds the backends too.
			if (child.exitCode === null && child.signalCode === null) {
				const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
				try {
					process.kill(child.pid!, 'SIGINT');
				} catch {
					// Already gone.
				}
				// The grace timer is cleared once Postgres is gone: left pending, it kept the test
				// process alive for the rest of the 10 s (jest: "did not exit one second after").
				let grace: NodeJS.Timeout | undefined;
				const graceOver = new Promise((r) => (grace = setTimeout(r, 10_000)));
				await Promise.race([exited, graceOver]);
				clearTimeout(grace);
				await stopProcessGroup(child, 2_000);
			}
			rmSync(dataDir, { recursive: true, force: true });
		},
	};
	try {
		await waitFor(
			`postgres on port ${port}`,
			async () => {
				if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}`);
				await psql('SELECT 1', 'postgres');
				return true;
			},
			{ timeoutMs: 60_000, intervalMs: 300 },
		);
		await psql(`CREATE DATABASE ${database}`, 'postgres');
	} catch (error) {
		await running.stop();
		throw error;
	}
	return running;
}
