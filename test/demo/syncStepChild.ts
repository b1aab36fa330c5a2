// Runs the demo's sync step in a process of its own, as `npm run demo` does, and prints what it
// left as JSON: the step's outcome and the service's leads straight from the sandbox's store.
// (Inside jest, n8n-core's file helpers cannot create a file: jest's Error is not the one Node's
// fs throws, so an `instanceof Error` check in n8n-core's resolvePath fails.)
// Environment: N8N_USER_FOLDER, N8N_RESTRICT_FILE_ACCESS_TO = the sheet's folder.

import { startSandbox } from '../../sandbox';
import { demoDataTables } from '../../scripts/demo/dataTables';
import { keepSpreadsheetInSync } from '../../scripts/demo/syncStep';

async function main(): Promise<void> {
	const sheetFolder = process.env.N8N_RESTRICT_FILE_ACCESS_TO!;
	const sandbox = await startSandbox({ port: 0, leads: 24, seed: 20261121 });
	try {
		const lines: string[] = [];
		const outcome = await keepSpreadsheetInSync(
			{
				sandbox,
				credentials: { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
				dataTables: demoDataTables(),
			},
			(line = '') => lines.push(line),
			sheetFolder,
		);
		const leads = sandbox.control.state().leads.filter((l) => l.organization_id === 'org_alpha');
		process.stdout.write(JSON.stringify({ outcome, lines, leads }));
	} finally {
		await sandbox.close();
	}
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
