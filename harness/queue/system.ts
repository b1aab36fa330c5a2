import { existsSync, readdirSync } from 'fs';
import { join } from 'path';

import { runCommand, tail } from '../real-n8n/processes';
import { nginxBin } from './balancer';

/** Where Debian puts the Postgres server binaries: /usr/lib/postgresql/<major>/bin. */
export function postgresBinDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const majors = readdirSync(root)
		.filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length > 0 ? join(root, majors[0], 'bin') : undefined;
}

export function redisServerBin(): string | undefined {
	for (const candidate of ['/usr/bin/redis-server', '/usr/local/bin/redis-server']) {
		if (existsSync(candidate)) return candidate;
	}
	return undefined;
}

function log(line: string): void {
	process.stdout.write(`[queue] ${line}\n`);
}

/**
 * Installs what is missing of redis-server and the Postgres server with apt-get (after
 * `apt-get update`), as on a fresh CI machine. Nothing is installed when both are present.
 */
export async function ensureRedisAndPostgres(): Promise<{ redis: string; postgresBin: string }> {
	const missing: string[] = [];
	if (!redisServerBin()) missing.push('redis-server');
	if (!postgresBinDir()) missing.push('postgresql');
	if (missing.length > 0) {
		log(`installing ${missing.join(', ')} with apt-get`);
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		const update = await runCommand('apt-get', ['update'], { env, timeoutMs: 600_000 });
		if (update.code !== 0) throw new Error(`apt-get update failed:\n${tail(update.stderr)}`);
		const install = await runCommand(
			'apt-get',
			['install', '-y', '--no-install-recommends', ...missing],
			{ env, timeoutMs: 900_000 },
		);
		if (install.code !== 0) {
			throw new Error(`apt-get install ${missing.join(' ')} failed:\n${tail(install.stderr)}`);
		}
	}
	const redis = redisServerBin();
	const postgresBin = postgresBinDir();
	if (!redis || !postgresBin)
		throw new Error('redis-server or the Postgres server is still missing');
	return { redis, postgresBin };
}

/** nginx from Debian, installed with apt-get when missing (the queue suite's balancer). */
export async function ensureNginx(): Promise<string> {
	if (!nginxBin()) {
		log('installing nginx with apt-get');
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		const update = await runCommand('apt-get', ['update'], { env, timeoutMs: 600_000 });
		if (update.code !== 0) throw new Error(`apt-get update failed:\n${tail(update.stderr)}`);
		const install = await runCommand(
			'apt-get',
			['install', '-y', '--no-install-recommends', 'nginx'],
			{
				env,
				timeoutMs: 900_000,
			},
		);
		if (install.code !== 0)
			throw new Error(`apt-get install nginx failed:\n${tail(install.stderr)}`);
	}
	const binary = nginxBin();
	if (!binary) throw new Error('nginx is still missing');
	return binary;
}
