// `npm run dev`: the real n8n editor with this package in one command.
//
// Builds and packs the package, starts the sandbox service with seeded data, installs the
// package into a local n8n user folder the way n8n installs community packages, stores the
// sandbox credential, imports the examples, starts n8n (the end-to-end suite's install, Node 24)
// and signs the owner up. Ctrl-C stops n8n and the sandbox.
//
//   npm run dev                 editor on http://localhost:5678
//   npm run dev -- --https      n8n serves HTTPS (self-signed), so the trigger can be activated
//   npm run dev -- --fresh      forget the previous session's workflows and executions
//
// Ports: N8N_PORT (default 5678) and SANDBOX_PORT (default 5690; n8n itself uses 5679 to 5681).

import { spawnSync } from 'child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'fs';
import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../sandbox';
import { buildAndPack, installCommunityPackage } from '../harness/real-n8n/community-package';
import { E2E_OWNER, N8nSession, startN8n, type N8nServer } from '../harness/real-n8n/n8n-server';
import { examplesDir, installScript, repoRoot } from '../harness/real-n8n/paths';
import { importCredential, importWorkflows } from '../harness/real-n8n/setup';
import { makeSelfSignedCertificate } from '../harness/real-n8n/tls';

const userFolder = join(repoRoot, '.n8n-e2e', 'dev');
const n8nPort = Number(process.env.N8N_PORT ?? 5678);
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 5690);
const https = process.argv.includes('--https');
const fresh = process.argv.includes('--fresh');

function step(text: string): void {
	process.stdout.write(`[dev] ${text}\n`);
}

async function main(): Promise<void> {
	const installed = spawnSync(process.execPath, [installScript], { stdio: 'inherit' });
	if (installed.status !== 0) throw new Error('Installing n8n failed');

	if (fresh) rmSync(userFolder, { recursive: true, force: true });
	const packDir = join(repoRoot, '.n8n-e2e', 'pack');
	rmSync(packDir, { recursive: true, force: true });
	mkdirSync(packDir, { recursive: true });
	mkdirSync(userFolder, { recursive: true });
	step('building and packing the package');
	await installCommunityPackage(userFolder, await buildAndPack(packDir));

	let sandbox: RunningSandbox | undefined;
	let n8n: N8nServer | undefined;
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		step('stopping n8n and the sandbox');
		await n8n?.stop();
		await sandbox?.close();
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));

	try {
		sandbox = await startSandbox({ port: sandboxPort });
		step(`sandbox service on ${sandbox.baseUrl}`);
		step('storing the credential and importing the examples');
		await importCredential(userFolder, { baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full });
		const examples = readdirSync(examplesDir).filter((file) => file.endsWith('.json'));
		await importWorkflows(
			userFolder,
			examples.map((file) => join(examplesDir, file)),
		);

		step('starting n8n');
		const certificate = https ? await makeSelfSignedCertificate(userFolder) : undefined;
		n8n = await startN8n({ userFolder, port: n8nPort, certificate, readyTimeoutMs: 120_000 });
		await N8nSession.signIn(n8n);
	} catch (error) {
		process.stderr.write(`[dev] ${(error as Error).message}\n`);
		await stop(1);
		return;
	}

	n8n.process.once('exit', (code) => {
		if (!stopping) {
			process.stderr.write(`[dev] n8n exited (${code}); its log: ${n8n!.logFile}\n`);
			void stop(1);
		}
	});

	const lines = [
		'',
		`n8n editor     ${n8n.url}${https ? '  (self-signed certificate: accept it in the browser)' : ''}`,
		`  e-mail       ${E2E_OWNER.email}`,
		`  password     ${E2E_OWNER.password}`,
		`Sandbox API    ${sandbox.baseUrl}   key ${sandbox.keys.full}`,
		`  credential   "Lead Conversations account" already points there`,
		`  events       ${sandbox.controlUrl} (see sandbox/README.md)`,
		`Examples       imported: ${readdirSync(examplesDir).filter((f) => f.endsWith('.json')).length} workflows`,
		https
			? 'Trigger        activate "assign qualified leads by round robin", then qualify a lead:\n' +
				`               curl -X POST ${sandbox.controlUrl}/leads/<lead id>/qualify -H 'content-type: application/json' -d '{"score": 85}'`
			: 'Trigger        needs an https:// webhook URL: restart with `npm run dev -- --https`',
		`n8n log        ${n8n.logFile}`,
		'',
		'Ctrl-C stops n8n and the sandbox.',
	];
	process.stdout.write(`${lines.join('\n')}\n`);
}

if (!existsSync(examplesDir)) throw new Error(`No examples folder at ${examplesDir}`);
main().catch((error: Error) => {
	process.stderr.write(`[dev] ${error.stack ?? error.message}\n`);
	process.exit(1);
});
