// `npm run demo`: runs example workflows of examples/ through n8n's engine (n8n-core's
// WorkflowExecute, poll, webhook and hook contexts, n8n-nodes-base's own built-in nodes)
// against a freshly started sandbox service, and tells in plain words what happened.
// No n8n install, no account, loopback only. Each step is a file of scripts/demo/.

import './demo/userFolder';

import { startSandbox } from '../sandbox';
import { ownLeads, sayToStdout as say, type DemoService } from './demo/common';
import { demoDataTables } from './demo/dataTables';
import { keepSpreadsheetInSync } from './demo/syncStep';
import { assignQualifiedLeads } from './demo/assignStep';
import { activateReroute, passOnLeadsLeftWaiting } from './demo/rerouteStep';
import { nudgeStalledConversations } from './demo/nudgeStep';

/** The jobs in the order a newcomer meets them; each step starts from where the last left off. */
async function runSteps(service: DemoService): Promise<void> {
	say();
	await keepSpreadsheetInSync(service, say);
	say();
	// Active while step 2 assigns leads, as both workflows would be in n8n.
	const reroute = await activateReroute(service);
	const assignment = await assignQualifiedLeads(service, say);
	say();
	await passOnLeadsLeftWaiting(service, say, reroute, assignment);
	say();
	await nudgeStalledConversations(service, say);
}

async function main(): Promise<void> {
	const sandbox = await startSandbox({ port: 0, leads: 24, seed: 20261121 });
	const service: DemoService = {
		sandbox,
		credentials: { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl },
		dataTables: demoDataTables(),
	};
	say(`A sandbox lead service on ${sandbox.baseUrl}, with ${ownLeads(sandbox).length} leads.`);
	try {
		await runSteps(service);
	} finally {
		await sandbox.close();
	}
	say();
	say(
		// Since the process started: loading n8n's engine is part of what a newcomer waits for.
		`Done in ${process.uptime().toFixed(1)} s. Import the workflows from examples/ into n8n.`,
	);
}

main().catch((error: Error) => {
	process.stderr.write(`Demo failed: ${error.stack ?? error.message}\n`);
	process.exit(1);
});
