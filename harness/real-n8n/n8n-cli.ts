import { join } from 'path';

import { freePort } from '../support/ports';
import { lineEnv } from './n8nLine';
import { n8nBin, nodeBin, nodeDir } from './paths';
import { runCommand, tail, type CommandResult } from './processes';

/** Fixed so that credentials imported in plain text can be decrypted by every later command. */
export const E2E_ENCRYPTION_KEY = 'lead-conversations-e2e-encryption-key';

/**
 * The environment of every n8n process the suite starts: its own user folder, sqlite, loopback,
 * nothing phoning home. Only PATH, HOME and locale come from the caller's environment, so a
 * developer's own N8N_* settings cannot leak in.
 */
export function n8nEnv(userFolder: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const inherited: NodeJS.ProcessEnv = {};
	for (const name of ['HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR']) {
		if (process.env[name] !== undefined) inherited[name] = process.env[name];
	}
	return {
		...inherited,
		PATH: `${join(nodeDir, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
		NODE_ENV: 'production',
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: E2E_ENCRYPTION_KEY,
		DB_TYPE: 'sqlite',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		N8N_LOG_LEVEL: 'info',
		...lineEnv(),
		...extra,
	};
}

/**
 * Runs one n8n CLI command on the install's Node. Each command boots most of n8n (about 4 s on two cores).
 */
export async function n8nCli(
	userFolder: string,
	args: string[],
	{
		// A first command on an empty database runs every migration: minutes on a loaded machine.
		timeoutMs = 300_000,
		env = {},
		allowFailure = false,
	}: { timeoutMs?: number; env?: Record<string, string>; allowFailure?: boolean } = {},
): Promise<CommandResult> {
	// Commands that run workflows start a task broker; its default port may be taken (by a
	// running n8n, another engineer's run, a sandbox), so each command gets a free one.
	const brokerPort = String(await freePort());
	const result = await runCommand(nodeBin, [n8nBin, ...args], {
		env: n8nEnv(userFolder, { N8N_RUNNERS_BROKER_PORT: brokerPort, ...env }),
		cwd: userFolder,
		timeoutMs,
	});
	if (result.code !== 0 && !allowFailure) throw commandFailure(args, result);
	return result;
}

function commandFailure(args: string[], result: CommandResult): Error {
	return new Error(
		`n8n ${args.join(' ')} exited with ${result.code ?? result.signal}\nstdout:\n${tail(result.stdout)}\nstderr:\n${tail(result.stderr)}`,
	);
}

/**
 * `n8n execute --rawOutput` prints the run's JSON through the logger, between log lines, on stdout.
 * The JSON is the one top-level value that starts at a line beginning with `{`; cut it out and parse it.
 */
export function parseRawOutput(stdout: string): unknown {
	const lines = stdout.split('\n');
	for (let start = 0; start < lines.length; start++) {
		if (!lines[start].startsWith('{')) continue;
		for (let end = lines.length; end > start; end--) {
			if (!lines[end - 1].startsWith('}')) continue;
			try {
				return JSON.parse(lines.slice(start, end).join('\n'));
			} catch {
				// Not this span; try a shorter one.
			}
		}
	}
	throw new Error(`No JSON run output found in n8n's stdout:\n${tail(stdout)}`);
}

/**
 * `n8n execute --rawOutput` of an imported workflow: the run n8n printed. With other n8n processes
 * starting and stopping beside it on a loaded machine, the command was seen ending by a signal
 * after it had printed a finished run (already stored in n8n's database); that run is what n8n
 * did, so it is returned, and the signal is printed. Any other ending without exit code 0 throws.
 */
export async function executeWorkflow(userFolder: string, workflowId: string): Promise<unknown> {
	const args = ['execute', `--id=${workflowId}`, '--rawOutput'];
	const result = await n8nCli(userFolder, args, { allowFailure: true });
	if (result.code === 0) return parseRawOutput(result.stdout);
	const failure = commandFailure(args, result);
	if (result.signal === null) throw failure;
	let run: { finished?: unknown; status?: unknown } | undefined;
	try {
		run = parseRawOutput(result.stdout) as typeof run;
	} catch {
		throw failure;
	}
	if (run?.finished !== true || typeof run.status !== 'string') throw failure;
	process.stdout.write(
		`\n[n8n execute] ${workflowId}: ended by ${result.signal} after printing its finished run (${run.status})\n`,
	);
	return run;
}
