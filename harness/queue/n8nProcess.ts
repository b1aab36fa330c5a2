import { spawn, type ChildProcess } from 'child_process';
import { createWriteStream, readFileSync } from 'fs';
import { join } from 'path';

import { httpCall } from '../real-n8n/http';
import { n8nEnv } from '../real-n8n/n8n-cli';
import { n8nBin, nodeBin } from '../real-n8n/paths';
import { stopProcessGroup, tail, waitFor } from '../real-n8n/processes';
import { freePort } from '../support/ports';

export type N8nRole = 'main' | 'worker' | 'webhook';

export interface N8nProcessOptions {
	role: N8nRole;
	label: string;
	userFolder: string;
	/** The environment shared by every process of the cluster. */
	env: Record<string, string>;
	/** Keep a port across restarts (the balancer points at it). */
	port?: number;
	workerConcurrency?: number;
	readyTimeoutMs?: number;
}

/** One n8n process of the cluster, in its own process group (stopped with all it started). */
export class N8nProcess {
	child!: ChildProcess;
	logFile!: string;
	/** Where it answers: the HTTP port (main, webhook) or the health-check port (worker). */
	port!: number;
	starts = 0;

	constructor(readonly options: N8nProcessOptions) {}

	get role(): N8nRole {
		return this.options.role;
	}

	get label(): string {
		return this.options.label;
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** e.g. http://127.0.0.1:5678 */
	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	get running(): boolean {
		return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
	}

	log(): string {
		try {
			return readFileSync(this.logFile, 'utf8');
		} catch {
			return '';
		}
	}

	async start(): Promise<void> {
		const { role, userFolder } = this.options;
		this.port = this.options.port ?? this.port ?? (await freePort());
		const roleEnv: Record<string, string> =
			role === 'worker'
				? {
						QUEUE_HEALTH_CHECK_ACTIVE: 'true',
						QUEUE_HEALTH_CHECK_PORT: String(this.port),
						N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
						N8N_PORT: String(await freePort()),
					}
				: { N8N_PORT: String(this.port) };
		if (role === 'main') roleEnv.N8N_DISABLE_PRODUCTION_MAIN_PROCESS = 'true';
		const env = n8nEnv(userFolder, {
			...this.options.env,
			...roleEnv,
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		});
		const args = role === 'main' ? ['start'] : role === 'worker' ? ['worker'] : ['webhook'];
		if (role === 'worker') args.push(`--concurrency=${this.options.workerConcurrency ?? 10}`);

		this.starts++;
		this.logFile = join(userFolder, `n8n-${this.label}-${this.starts}.log`);
		const logStream = createWriteStream(this.logFile);
		const child = spawn(nodeBin, [n8nBin, ...args], {
			cwd: userFolder,
			env,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		child.stdout!.pipe(logStream, { end: false });
		child.stderr!.pipe(logStream, { end: false });
		child.once('exit', () => logStream.end());
		this.child = child;

		try {
			await waitFor(
				`n8n ${this.label} to be ready on ${this.url}`,
				async () => {
					if (child.exitCode !== null || child.signalCode !== null) {
						throw new Error(`n8n ${this.label} exited (${child.exitCode ?? child.signalCode})`);
					}
					const res = await httpCall('GET', `${this.url}/healthz/readiness`, { timeoutMs: 3_000 });
					return res.status === 200 ? true : undefined;
				},
				{ timeoutMs: this.options.readyTimeoutMs ?? 180_000, intervalMs: 400 },
			);
		} catch (error) {
			await this.stop();
			throw new Error(
				`${(error as Error).message}\n--- ${this.label} log ---\n${tail(this.log(), 60)}`,
			);
		}
	}

	/** SIGTERM to its process group (n8n shuts down cleanly), SIGKILL after the grace time. */
	async stop(graceMs = 20_000): Promise<void> {
		if (this.child) await stopProcessGroup(this.child, graceMs);
	}

	/** SIGKILL to its process group at once: the process dies between two instructions. */
	async kill(): Promise<void> {
		if (!this.running) return;
		const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
		try {
			process.kill(-this.child.pid!, 'SIGKILL');
		} catch {
			// Already gone.
		}
		await exited;
	}

	async restart(): Promise<void> {
		await this.stop();
		await this.start();
	}
}
