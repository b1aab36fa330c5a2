import { startSandbox } from './index';
import type { SandboxOptions } from './contract';

// npm run sandbox -- [--port N] [--leads N] [--rate-limit N] [--window-ms MS]
//                    [--retry-scale F] [--allow-http-webhooks] [--seed N] [--host H]

const USAGE = `Usage: npm run sandbox -- [options]
  --port N               port to listen on (default 4010; 0 = any free port)
  --host H               address to bind (default 127.0.0.1)
  --leads N              seeded leads of org_alpha (default 250)
  --seed N               seed of the data and keys
  --rate-limit N         requests per window per key (default 1000)
  --window-ms MS         rate-limit window (default 60000)
  --retry-scale F        scale of the webhook retry schedule (default 1)
  --allow-http-webhooks  accept http:// subscriber URLs
  --delivery-timeout-ms MS  webhook delivery time-out (default 10000)
  --help                 this text`;

function parseArgs(argv: string[]): SandboxOptions {
	const options: SandboxOptions = { port: 4010 };
	const numeric: Record<string, keyof SandboxOptions> = {
		'--port': 'port',
		'--leads': 'leads',
		'--seed': 'seed',
		'--rate-limit': 'rateLimit',
		'--window-ms': 'windowMs',
		'--retry-scale': 'retryScale',
		'--delivery-timeout-ms': 'deliveryTimeoutMs',
	};
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2) as [string, string | undefined];
		if (flag === '--help' || flag === '-h') {
			console.log(USAGE);
			process.exit(0);
		} else if (flag === '--allow-http-webhooks') {
			options.allowHttpWebhooks = true;
		} else if (flag === '--host') {
			options.host = inline ?? argv[++i];
		} else if (numeric[flag]) {
			const raw = inline ?? argv[++i];
			const value = Number(raw);
			if (raw === undefined || !Number.isFinite(value)) {
				console.error(`${flag} needs a number\n\n${USAGE}`);
				process.exit(2);
			}
			(options as Record<string, number>)[numeric[flag]] = value;
		} else {
			console.error(`Unknown option ${argv[i]}\n\n${USAGE}`);
			process.exit(2);
		}
	}
	return options;
}

async function main(): Promise<void> {
	const sandbox = await startSandbox(parseArgs(process.argv.slice(2)));
	const { keys } = sandbox;
	console.log(
		[
			'Lead and conversation sandbox service',
			`  Base URL:     ${sandbox.baseUrl}`,
			`  Control URL:  ${sandbox.controlUrl}`,
			'  API keys (header X-API-Key):',
			`    full               ${keys.full}   (org_alpha)`,
			`    readOnly           ${keys.readOnly}   (org_alpha, writes get 403)`,
			`    otherOrganization  ${keys.otherOrganization}   (org_beta)`,
			`    suspended          ${keys.suspended}   (suspended account, 403)`,
			`    revoked            ${keys.revoked}   (401)`,
			'  Stop with Ctrl+C.',
		].join('\n'),
	);
	console.log(
		`SANDBOX_READY ${JSON.stringify({ baseUrl: sandbox.baseUrl, controlUrl: sandbox.controlUrl, keys })}`,
	);

	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`${signal}: stopping sandbox`);
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error) => {
	console.error(error?.message ?? error);
	process.exit(1);
});
