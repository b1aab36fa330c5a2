import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { listExecutions, waitForTriggerStatus } from '../../../harness/real-n8n/executions';
import {
	N8nPublicApi,
	type N8nServer,
	startN8nWithApi,
} from '../../../harness/real-n8n/n8n-server';
import { examplesDir } from '../../../harness/real-n8n/paths';
import { waitFor } from '../../../harness/real-n8n/processes';
import { importWorkflows, prepareUserFolder } from '../../../harness/real-n8n/setup';
import { makeSelfSignedCertificate } from '../../../harness/real-n8n/tls';
import { createAdvisorsRoster } from '../../support/advisorsRoster';
import { example } from '../support/exampleRuns';

// Lead → Assign in a real n8n 2.41.1 (one process, HTTPS), through the example workflow: the
// roster lives in an n8n Data Table made through n8n's public API, read by n8n's Data Table node.
// 200 leads are qualified 8 at a time, so 8 executions are in flight at once.

const ID = example('qualified-lead-round-robin.json').id;
const PRESENT = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz'];
const AWAY = 'user_dario_sosa';
const MANUAL = 'user_manager_pick';
const LEADS = 200;
const IN_FLIGHT = 8;

let sandbox: RunningSandbox;
let n8n: N8nServer;
let api: N8nPublicApi;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, leads: 0, seed: 20261126 });
	const userFolder = await prepareUserFolder('assign', {
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.full,
	});
	await importWorkflows(userFolder, [join(examplesDir, 'qualified-lead-round-robin.json')]);
	const certificate = await makeSelfSignedCertificate(userFolder);
	({ n8n, api } = await startN8nWithApi({ userFolder, certificate }));

	await createAdvisorsRoster(api, [
		{ user_id: PRESENT[0] },
		{ user_id: PRESENT[1], weight: null },
		{ user_id: AWAY, away: true },
		{ user_id: PRESENT[2] },
	]);

	expect((await api.request('POST', `/workflows/${ID}/activate`)).status).toBe(200);
	expect((await waitForTriggerStatus(userFolder, ID))[0].status).toBe('activated');
}, 240_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

async function finishedExecutions(count: number) {
	return await waitFor(
		`${count} finished executions`,
		async () => {
			const executions = await listExecutions(api, ID);
			const finished = executions.filter((e) => e.status !== 'running' && e.status !== 'new');
			return finished.length >= count ? finished : undefined;
		},
		{ timeoutMs: 60_000, intervalMs: 300 },
	);
}

test(`${LEADS} leads qualified ${IN_FLIGHT} at a time: each gets one advisor, turns even, away gets none, a manual assignment kept`, async () => {
	const leads = Array.from({ length: LEADS }, (_, index) =>
		sandbox.control.createChannelLead({
			name: `Assign Lead ${index + 1}`,
			status: 'in_conversation',
			assigned_to: index === 0 ? MANUAL : null,
		}),
	);
	sandbox.control.clearRequests();

	for (let start = 0; start < LEADS; start += IN_FLIGHT) {
		for (const lead of leads.slice(start, start + IN_FLIGHT)) {
			sandbox.control.qualifyLead(lead.id, 85);
		}
		await sandbox.control.whenDeliveriesSettled();
		await finishedExecutions(Math.min(start + IN_FLIGHT, LEADS));
	}
	const executions = await finishedExecutions(LEADS);
	expect(executions.filter((e) => e.status !== 'success')).toEqual([]);

	const byId = new Map(sandbox.control.state().leads.map((lead) => [lead.id, lead]));
	const after = leads.map((lead) => byId.get(lead.id)!);
	expect(after[0]).toMatchObject({ assigned_to: MANUAL, status: 'qualified' });
	const counts: Record<string, number> = {};
	for (const lead of after.slice(1)) {
		expect(PRESENT).toContain(lead.assigned_to);
		expect(lead.status).toBe('assigned');
		counts[lead.assigned_to!] = (counts[lead.assigned_to!] ?? 0) + 1;
	}
	const patches = sandbox.control.requests().filter((r) => r.method === 'PATCH');
	const gets = sandbox.control.requests().filter((r) => r.method === 'GET');
	// One advisor each, set once: one PATCH per lead that had none, none for the manual one.
	expect(new Set(patches.map((r) => r.path)).size).toBe(patches.length);
	expect(patches).toHaveLength(LEADS - 1);
	const values = PRESENT.map((advisor) => counts[advisor] ?? 0);
	expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(1);
	expect(counts[AWAY]).toBeUndefined();
	process.stdout.write(
		`\n[assign e2e] ${LEADS} leads, ${IN_FLIGHT} in flight: per advisor ${JSON.stringify(counts)}, ` +
			`${AWAY} (away) 0, manual kept; lead GETs ${gets.filter((r) => r.path.startsWith('/v1/leads/')).length}, PATCHes ${patches.length}\n`,
	);
}, 600_000);
