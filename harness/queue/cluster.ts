import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';

import { installCommunityPackage } from '../real-n8n/community-package';
import { n8nCli } from '../real-n8n/n8n-cli';
import { N8nPublicApi, N8nSession, type N8nServer } from '../real-n8n/n8n-server';
import { type ServiceAccess, writeCredentialsFile } from '../real-n8n/setup';
import { freePort } from '../support/ports';
import { writeSelfSignedCertificate, type CertificateFiles } from '../support/tls';
import { startBalancer, type Balancer } from './balancer';
import { startFaultProxy, type FaultProxy } from './faultProxy';
import { N8nDatabase } from './n8nDatabase';
import { N8nProcess } from './n8nProcess';
import { startPostgres, type RunningPostgres } from './postgres';
import { startRedis, type RunningRedis } from './redis';
import { ensureNginx, ensureRedisAndPostgres } from './system';

// n8n's queue mode on one machine, as a user scales n8n out: Redis and Postgres shared by one
// main process (editor, API, activation), workers (every execution) and webhook processes
// (production webhooks) behind nginx as the round-robin balancer. The service reaches nginx
// through a fault proxy (N8N_WEBHOOK_URL), which passes everything through unless a test asks it
// to lose answers. Everything listens on loopback on free ports; everything started is stopped by
// its PID.

export interface QueueClusterOptions {
	/** The packed package, installed the community way into every process's user folder. */
	tarball: string;
	/** Scratch folder: user folders, logs, certificate. */
	workDir: string;
	service: ServiceAccess;
	/** Workflow objects (with fixed ids) imported before main starts; activate them with `activate`. */
	workflows: Array<{ id: string }>;
	/** Credentials imported beside the service's (n8n's import format, `data` in plain text). */
	credentials?: ImportedCredential[];
	/** The public port (the fault proxy's), when subscriptions to it must exist before the
	 * cluster starts. */
	balancerPort?: number;
	workers?: number;
	webhooks?: number;
	/** Jobs one worker runs at once (n8n's `--concurrency`). */
	workerConcurrency?: number;
	env?: Record<string, string>;
	log?: (line: string) => void;
}

export interface ImportedCredential {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

const ENCRYPTION_KEY = 'lead-conversations-queue-encryption-key';

export class QueueCluster {
	redis!: RunningRedis;
	postgres!: RunningPostgres;
	/** nginx in front of the webhook processes. */
	balancer!: Balancer;
	/** In front of nginx: N8N_WEBHOOK_URL, where the service delivers. */
	faults!: FaultProxy;
	certificate!: CertificateFiles;
	main!: N8nProcess;
	workers: N8nProcess[] = [];
	webhooks: N8nProcess[] = [];
	api!: N8nPublicApi;
	apiKey!: string;
	/** What n8n recorded in Postgres: activation outcomes, static data, executions. */
	db!: N8nDatabase;
	/** Seconds from nothing to every process ready. */
	startupSeconds = 0;
	private sharedEnv: Record<string, string> = {};

	private constructor(readonly options: QueueClusterOptions) {}

	private log(line: string): void {
		(this.options.log ?? ((text) => process.stdout.write(`[queue] ${text}\n`)))(line);
	}

	/** Starts everything; on a failure stops what was started and rethrows. */
	static async start(options: QueueClusterOptions): Promise<QueueCluster> {
		const cluster = new QueueCluster(options);
		try {
			await cluster.boot();
		} catch (error) {
			await cluster.stop();
			throw error;
		}
		return cluster;
	}

	private async boot(): Promise<void> {
		const started = Date.now();
		const { workDir } = this.options;
		const { redis, postgresBin } = await ensureRedisAndPostgres();
		[this.redis, this.postgres] = await Promise.all([
			startRedis(redis),
			startPostgres(postgresBin),
		]);
		this.db = new N8nDatabase(this.postgres);
		this.log(
			`redis :${this.redis.port} (pid ${this.redis.pid}), postgres :${this.postgres.port} (pid ${this.postgres.pid})`,
		);

		this.certificate = writeSelfSignedCertificate(workDir);
		await ensureNginx();
		this.balancer = await startBalancer({
			certificate: this.certificate,
			port: await freePort(),
			workDir,
		});
		this.faults = await startFaultProxy({
			certificate: this.certificate,
			port: this.options.balancerPort ?? (await freePort()),
			target: this.balancer.port,
		});
		this.sharedEnv = {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(this.postgres.port),
			DB_POSTGRESDB_DATABASE: this.postgres.database,
			DB_POSTGRESDB_USER: this.postgres.user,
			DB_POSTGRESDB_PASSWORD: '',
			// n8n's default pool of 2 connections per process times out under bursts of
			// deliveries on a busy machine ("timeout exceeded when trying to connect").
			DB_POSTGRESDB_POOL_SIZE: '10',
			DB_POSTGRESDB_CONNECTION_TIMEOUT: '60000',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(this.redis.port),
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
			N8N_PROTOCOL: 'http',
			N8N_HOST: 'localhost',
			N8N_WEBHOOK_URL: this.faults.url,
			// nginx is the one proxy n8n's webhook processes see.
			N8N_PROXY_HOPS: '1',
			N8N_SECURE_COOKIE: 'false',
			N8N_LOG_LEVEL: 'info',
			...this.options.env,
		};

		const folder = (label: string) => {
			const dir = join(workDir, label);
			mkdirSync(dir, { recursive: true });
			return dir;
		};
		const make = (role: 'main' | 'worker' | 'webhook', label: string) =>
			new N8nProcess({
				role,
				label,
				userFolder: folder(label),
				env: this.sharedEnv,
				workerConcurrency: this.options.workerConcurrency,
			});
		this.main = make('main', 'main');
		this.workers = Array.from({ length: this.options.workers ?? 2 }, (_, i) =>
			make('worker', `worker${i + 1}`),
		);
		this.webhooks = Array.from({ length: this.options.webhooks ?? 2 }, (_, i) =>
			make('webhook', `webhook${i + 1}`),
		);
		for (const process of this.processes()) {
			await installCommunityPackage(process.options.userFolder, this.options.tarball);
		}

		// The first CLI command also runs n8n's migrations on the empty database.
		await this.importCredential();
		await this.importWorkflows(this.options.workflows);
		this.log(`${this.options.workflows.length} workflow(s) imported`);

		this.log(`database ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
		// Workers and webhook processes need nothing from main to start: all start at once.
		const others = Promise.allSettled([...this.workers, ...this.webhooks].map((p) => p.start()));
		const mainStarted = this.startMain(started).then(
			() => undefined,
			(error: unknown) => ({ error }),
		);
		// Every start settled before going on, or before `stop` on a failure.
		const mainFailed = await mainStarted;
		const failed = (await others).find((result) => result.status === 'rejected');
		if (mainFailed) throw mainFailed.error;
		if (failed) throw failed.reason;
		await this.balancer.setBackends(this.webhooks.map((p) => p.port));
		this.startupSeconds = (Date.now() - started) / 1000;
		this.log(
			`ready in ${this.startupSeconds.toFixed(0)} s: ${this.processes()
				.map((p) => `${p.label} :${p.port} (pid ${p.pid})`)
				.join(
					', ',
				)}, nginx ${this.balancer.url} (pid ${this.balancer.pid}), service deliveries via ${this.faults.url}`,
		);
	}

	/** Main, then a session and an API key for the public API. */
	private async startMain(started: number): Promise<void> {
		await this.main.start();
		this.log(`main ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
		const session = await N8nSession.signIn(this.mainServer());
		this.apiKey = await session.createApiKey('queue');
		this.api = new N8nPublicApi(this.mainServer(), this.apiKey);
	}

	processes(): N8nProcess[] {
		return [this.main, ...this.workers, ...this.webhooks].filter(Boolean);
	}

	/** The shape the real-n8n helpers (session, public API) expect. */
	mainServer(): N8nServer {
		const main = this.main;
		return {
			url: main.url,
			port: main.port,
			webhookUrl: this.faults.url,
			logFile: main.logFile,
			process: main.child,
			log: () => main.log(),
			stop: () => main.stop(),
		};
	}

	private cli(args: string[]) {
		return n8nCli(this.main.options.userFolder, args, { env: this.sharedEnv, timeoutMs: 240_000 });
	}

	async importCredential(): Promise<void> {
		const file = writeCredentialsFile(
			this.main.options.userFolder,
			this.options.service,
			this.options.credentials,
		);
		await this.cli(['import:credentials', `--input=${file}`]);
	}

	async importWorkflows(workflows: Array<{ id: string }>): Promise<void> {
		if (workflows.length === 0) return;
		const dir = join(this.main.options.userFolder, `workflows-${Date.now()}`);
		mkdirSync(dir, { recursive: true });
		for (const workflow of workflows) {
			writeFileSync(join(dir, `${workflow.id}.json`), JSON.stringify(workflow, null, 2));
		}
		await this.cli(['import:workflow', '--separate', `--input=${dir}`]);
	}

	/** Activates through main's public API and waits for n8n's own record of this activation. */
	async activate(workflowId: string): Promise<void> {
		const before = await this.db.activationStamp(workflowId);
		const res = await this.api.request('POST', `/workflows/${workflowId}/activate`);
		if (res.status !== 200) throw new Error(`activate ${workflowId}: ${res.status} ${res.text}`);
		await this.db.waitForActivation(workflowId, before);
	}

	async deactivate(workflowId: string): Promise<void> {
		const res = await this.api.request('POST', `/workflows/${workflowId}/deactivate`);
		if (res.status !== 200) throw new Error(`deactivate ${workflowId}: ${res.status} ${res.text}`);
	}

	/** Each worker's count of executions it started, from its logs (all its starts). */
	workerExecutionIds(worker: N8nProcess): string[] {
		return [...worker.log().matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]);
	}

	/** Stops everything this cluster started, by PID; safe to call twice and after a failure. */
	async stop(): Promise<void> {
		const stops = this.processes().map((p) => p.stop(15_000).catch(() => undefined));
		await Promise.all(stops);
		await this.faults?.close().catch(() => undefined);
		await this.balancer?.close().catch(() => undefined);
		await this.redis?.stop().catch(() => undefined);
		await this.postgres?.stop().catch(() => undefined);
	}
}
