import { createHash } from 'crypto';
import { mkdirSync, readFileSync } from 'fs';
import { join } from 'path';

import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { QueueCluster } from '../../../harness/queue/cluster';
import { startRunSink, type RunSink } from '../../../harness/queue/sink';
import {
	TRIGGER_NODE,
	returnAllWorkflow,
	triggerWebhookPath,
	triggerWithOnlyNewWorkflow,
	triggerWorkflow,
} from '../../../harness/queue/workflows';
import { N8nSession } from '../../../harness/real-n8n/n8n-server';
import { examplesDir } from '../../../harness/real-n8n/paths';
import { waitFor } from '../../../harness/real-n8n/processes';
import { packedTarball } from '../../../harness/real-n8n/setup';
import { recordFigure } from '../support/figures';
import {
	deliveredKeys,
	eventKey,
	keyOfBody,
	keysOfLeads,
	post,
	runsPerEvent,
	signedEvent,
	sleep,
	streamLeadEvents,
	tally,
	waitForQuiet,
	waitForRunsOf,
} from '../support/runs';

// Issue 11: the package's promises in n8n's queue mode. One cluster (main, 2 workers, 2 webhook
// processes, a round-robin balancer, Redis, Postgres) serves every test of this file, in order.
// Each test prints the figure it measured and asserts the issue's target.

const MAIN = 'LcQueueTrigger01';
const MAIN_WEBHOOK_ID = '3a0c1e52-7d44-4c1b-9f0e-5b2a9c7d1e01';
const STRESS = 'LcQueueStress001';
const STRESS_WEBHOOK_ID = '3a0c1e52-7d44-4c1b-9f0e-5b2a9c7d1e02';
const STRESS_SYNC_PATH = 'lc-queue-only-new-sync';
const RETURN_ALL = 'LcQueueReturnAll';
const RETURN_ALL_PATH = 'lc-queue-return-all';
const EXAMPLES = [
	'leads-to-spreadsheet.json',
	'qualified-lead-round-robin.json',
	'stalled-conversation-nudge.json',
];
const SEEDED_LEADS = 1000;
/** Seeded leads are all created in 2025; events of the suite create leads now. */
const SEEDED_BEFORE = '2026-01-01T00:00:00.000Z';

let sandbox: RunningSandbox;
let sink: RunSink;
let cluster: QueueCluster;

function example(file: string): { id: string; nodes: any[] } {
	return JSON.parse(readFileSync(join(examplesDir, file), 'utf8'));
}

function subscriptionsAt(webhookId: string) {
	return sandbox.control
		.webhooks()
		.filter((w) => w.url.endsWith(`/${triggerWebhookPath(webhookId)}`));
}

function onlySubscription(webhookId = MAIN_WEBHOOK_ID) {
	const subscriptions = subscriptionsAt(webhookId);
	expect(subscriptions).toHaveLength(1);
	return subscriptions[0];
}

function webhookRequests(method: 'POST' | 'DELETE') {
	return sandbox.control
		.requests()
		.filter((r) => r.method === method && r.path.startsWith('/v1/webhooks'));
}

async function totalExecutions(workflowId: string): Promise<number> {
	const counts = await cluster.executionCounts(workflowId);
	return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** Settled deliveries, but never longer than `capMs` (a third retry may be minutes away). */
async function deliveriesSettled(capMs: number): Promise<boolean> {
	return await Promise.race([
		sandbox.control.whenDeliveriesSettled().then(() => true),
		sleep(capMs).then(() => false),
	]);
}

/**
 * Waits until the service has tried to deliver the events of these leads at least once. Not
 * "all deliveries settled": retries of earlier tests may be minutes away.
 */
async function attemptedFor(leadIds: string[]): Promise<void> {
	await waitFor(
		'the first delivery attempts',
		() => (keysOfLeads(sandbox, leadIds).length >= leadIds.length ? true : undefined),
		{ timeoutMs: 30_000 },
	).catch(() => undefined);
}

function triggerRuns(workflowId: string) {
	return runsPerEvent(sink, 'trigger', (r) => r.workflow === workflowId);
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, leads: SEEDED_LEADS, seed: 20261124 });
	sink = await startRunSink();
	const workDir = join(process.env.LC_E2E_WORK_DIR!, 'queue-cluster');
	mkdirSync(workDir, { recursive: true });
	cluster = await QueueCluster.start({
		tarball: packedTarball(),
		workDir,
		service: { baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full },
		workflows: [
			triggerWorkflow({ id: MAIN, webhookId: MAIN_WEBHOOK_ID, sinkUrl: sink.url }),
			triggerWithOnlyNewWorkflow({
				id: STRESS,
				webhookId: STRESS_WEBHOOK_ID,
				syncPath: STRESS_SYNC_PATH,
				sinkUrl: sink.url,
			}),
			returnAllWorkflow({
				id: RETURN_ALL,
				path: RETURN_ALL_PATH,
				sinkUrl: sink.url,
				filters: { createdBefore: SEEDED_BEFORE },
			}),
			...EXAMPLES.map(example),
		],
		// Two jobs per worker: four concurrent Return-All runs spread over both workers.
		workerConcurrency: 2,
	});
	recordFigure({
		point: 'setup',
		test: 'cluster from nothing to ready',
		figure: `${cluster.startupSeconds.toFixed(0)} s (Redis, Postgres, main, 2 workers, 2 webhook processes, balancer)`,
		target: 'runs',
	});
}, 420_000);

afterAll(async () => {
	await cluster?.stop();
	await sink?.close();
	await sandbox?.close();
}, 120_000);

describe('1. activation, restarts of main, deactivation', () => {
	let firstSubscription: { id: string; secret: string };

	it('activation from main subscribes once, at the balancer’s https address', async () => {
		await cluster.activate(MAIN);
		const subscriptions = subscriptionsAt(MAIN_WEBHOOK_ID);
		const creations = webhookRequests('POST');
		recordFigure({
			point: '1',
			test: 'activation from main',
			figure: `${subscriptions.length} subscription(s), ${creations.length} POST /webhooks`,
			target: 'exactly 1',
		});
		expect(subscriptions).toHaveLength(1);
		expect(creations).toHaveLength(1);
		expect(subscriptions[0].url).toBe(
			`${cluster.balancer.url}${triggerWebhookPath(MAIN_WEBHOOK_ID)}`,
		);
		firstSubscription = { id: subscriptions[0].id, secret: subscriptions[0].secret };
	});

	it('restarts of main keep exactly one subscription, which still delivers', async () => {
		const counts: number[] = [];
		for (let restart = 1; restart <= 2; restart++) {
			await cluster.main.restart();
			await sleep(2_000);
			counts.push(subscriptionsAt(MAIN_WEBHOOK_ID).length);
		}
		const lead = sandbox.control.createChannelLead({ channel: 'web_form' });
		await attemptedFor([lead.id]);
		const [key] = keysOfLeads(sandbox, [lead.id]);
		await waitFor(
			'the run of the event sent after the restarts',
			() => (triggerRuns(MAIN).get(key) ? true : undefined),
			{ timeoutMs: 60_000 },
		);
		recordFigure({
			point: '1',
			test: 'restarts of main',
			figure: `subscriptions after each of 2 restarts: ${counts.join(', ')}; POST /webhooks ${webhookRequests('POST').length}, DELETE ${webhookRequests('DELETE').length}; an event after them: ${triggerRuns(MAIN).get(key)} run`,
			target: 'exactly 1 subscription, the same one, no new POST or DELETE',
		});
		expect(counts).toEqual([1, 1]);
		expect(onlySubscription().id).toBe(firstSubscription.id);
		expect(webhookRequests('POST')).toHaveLength(1);
		expect(webhookRequests('DELETE')).toHaveLength(0);
		expect(triggerRuns(MAIN).get(key)).toBe(1);
	});

	it('deactivation from main unsubscribes', async () => {
		await cluster.deactivate(MAIN);
		await waitFor('the subscription to be deleted', () =>
			subscriptionsAt(MAIN_WEBHOOK_ID).length === 0 ? true : undefined,
		);
		const deletions = webhookRequests('DELETE');
		recordFigure({
			point: '1',
			test: 'deactivation from main',
			figure: `${subscriptionsAt(MAIN_WEBHOOK_ID).length} subscription(s) left, ${deletions.length} DELETE`,
			target: '0 left',
		});
		expect(deletions).toHaveLength(1);
		expect(deletions[0].status).toBe(204);
	});

	it('re-activation’s new secret is used by both webhook processes at once', async () => {
		await cluster.activate(MAIN);
		const renewed = onlySubscription();
		expect(renewed.id).not.toBe(firstSubscription.id);
		expect(renewed.secret).not.toBe(firstSubscription.secret);
		const path = triggerWebhookPath(MAIN_WEBHOOK_ID);
		const outcomes: string[] = [];
		const acceptedKeys: string[] = [];
		for (const process of cluster.webhooks) {
			const fresh = signedEvent(renewed.secret, `lead_secret_${process.label}`);
			const stale = signedEvent(firstSubscription.secret, `lead_stale_${process.label}`);
			const withNew = await post(`${process.url}/${path}`, fresh.body, {
				'X-Service-Signature': fresh.signature,
			});
			const withOld = await post(`${process.url}/${path}`, stale.body, {
				'X-Service-Signature': stale.signature,
			});
			outcomes.push(`${process.label}: new secret ${withNew.status}, old secret ${withOld.status}`);
			expect(withNew.status).toBe(200);
			expect(withOld.status).toBe(401);
			acceptedKeys.push(fresh.key);
		}
		await waitFor(
			'the runs of the new-secret events',
			() => (acceptedKeys.every((key) => triggerRuns(MAIN).has(key)) ? true : undefined),
			{ timeoutMs: 60_000 },
		).catch(() => undefined);
		await sleep(2_000);
		const runs = triggerRuns(MAIN);
		recordFigure({
			point: '1',
			test: 're-activation’s new secret',
			figure: `${outcomes.join('; ')}; runs of the new-secret events: ${acceptedKeys.map((k) => runs.get(k) ?? 0).join(', ')}`,
			target: 'new secret 200 and one run on both processes; old secret 401',
		});
		for (const key of acceptedKeys) expect(runs.get(key)).toBe(1);
	});
});

describe('2. signed deliveries through the balancer', () => {
	it('200 events → 200 runs, with deliveries on both webhook processes', async () => {
		cluster.balancer.clearLog();
		sandbox.control.clearDeliveries();
		const started = Date.now();
		const leadIds = await streamLeadEvents(sandbox, 200, 10);
		await deliveriesSettled(60_000);
		const keys = keysOfLeads(sandbox, leadIds);
		await waitForRunsOf(keys, () => triggerRuns(MAIN));
		const result = tally(keys, triggerRuns(MAIN));
		const perProcess = cluster.balancer.perBackend();
		const failedAttempts = sandbox.control.deliveries().filter((d) => !d.ok).length;
		recordFigure({
			point: '2',
			test: '200 events',
			figure: `${result.runs} runs for ${result.events} events (${result.missing.length} missing, ${result.extra} extra); deliveries per webhook process ${perProcess.join(' / ')}; ${failedAttempts} failed attempts; ${((Date.now() - started) / 1000).toFixed(1)} s`,
			target: '200 runs, both processes used',
		});
		expect(result.events).toBe(200);
		expect(result.missing).toEqual([]);
		expect(result.extra).toBe(0);
		expect(perProcess.every((n) => n > 0)).toBe(true);
	});

	it('forged or unsigned deliveries → 401 on either process, and no run', async () => {
		const { secret } = onlySubscription();
		const before = await totalExecutions(MAIN);
		const path = triggerWebhookPath(MAIN_WEBHOOK_ID);
		const targets = [
			cluster.balancer.url.replace(/\/$/, ''),
			...cluster.webhooks.map((p) => p.url),
		];
		const statuses: number[] = [];
		const keys: string[] = [];
		for (const [i, target] of targets.entries()) {
			const forged = signedEvent('not-the-secret', `lead_forged_${i}`);
			const unsigned = signedEvent(secret, `lead_unsigned_${i}`);
			const tampered = signedEvent(secret, `lead_tampered_${i}`);
			statuses.push(
				(await post(`${target}/${path}`, forged.body, { 'X-Service-Signature': forged.signature }))
					.status,
			);
			statuses.push((await post(`${target}/${path}`, unsigned.body)).status);
			statuses.push(
				(
					await post(`${target}/${path}`, tampered.body.replace('"score":0', '"score":99'), {
						'X-Service-Signature': tampered.signature,
					})
				).status,
			);
			keys.push(forged.key, unsigned.key, tampered.key);
		}
		await sleep(4_000);
		const after = await totalExecutions(MAIN);
		const runs = triggerRuns(MAIN);
		const started = keys.filter((k) => runs.has(k)).length;
		recordFigure({
			point: '2',
			test: 'forged or unsigned',
			figure: `${statuses.filter((s) => s === 401).length}/${statuses.length} answered 401 (balancer, webhook1, webhook2); executions before/after ${before}/${after}`,
			target: 'all 401, no run',
		});
		expect(statuses.every((s) => s === 401)).toBe(true);
		expect(after).toBe(before);
		expect(started).toBe(0);
	});
});

describe('3. duplicates across webhook processes and restarts', () => {
	it('first answers lost, retries on either process, a webhook process restarted half-way: 200 events → exactly 200 runs', async () => {
		// Scaled retries: 12 s, 60 s, 6 min after the first failure (the service's 1, 5, 30 min
		// × 0.2), so the first retry comes after the first run has finished, as with the real
		// one-minute retry.
		sandbox.control.setOptions({ retryScale: 0.2 });
		sandbox.control.clearDeliveries();
		cluster.balancer.clearLog();
		cluster.balancer.loseFirstAnswers(true);
		let restart: Promise<void> | undefined;
		let leadIds: string[];
		try {
			leadIds = await streamLeadEvents(sandbox, 200, 10, () => {
				restart = cluster.webhooks[1].restart();
			});
			await restart;
			await deliveriesSettled(150_000);
		} finally {
			cluster.balancer.loseFirstAnswers(false);
			sandbox.control.setOptions({ retryScale: 1 });
		}
		const keys = keysOfLeads(sandbox, leadIds);
		await waitForRunsOf(keys, () => triggerRuns(MAIN));
		const runs = triggerRuns(MAIN);
		const result = tally(keys, runs);

		// Where the retries went, and whether each came after the event's first run had ended.
		const byBody = new Map<string, typeof cluster.balancer.log>();
		for (const entry of cluster.balancer.log) {
			if (!entry.path.startsWith(`/${triggerWebhookPath(MAIN_WEBHOOK_ID)}`)) continue;
			byBody.set(entry.bodyKey, [...(byBody.get(entry.bodyKey) ?? []), entry]);
		}
		const bodyToKey = new Map<string, string>();
		for (const d of sandbox.control.deliveries()) {
			bodyToKey.set(createHash('sha256').update(d.body).digest('hex'), keyOfBody(d.body));
		}
		const firstRunAt = new Map<string, number>();
		for (const r of sink.of('trigger')) {
			const key = eventKey(r);
			if (!firstRunAt.has(key) || firstRunAt.get(key)! > r.at) firstRunAt.set(key, r.at);
		}
		let retries = 0;
		let otherProcess = 0;
		let afterFirstRun = 0;
		for (const [bodyKey, entries] of byBody) {
			if (entries.length < 2) continue;
			retries++;
			if (entries[1].backend !== entries[0].backend) otherProcess++;
			const ranAt = firstRunAt.get(bodyToKey.get(bodyKey) ?? '');
			if (ranAt !== undefined && entries[1].at > ranAt) afterFirstRun++;
		}
		recordFigure({
			point: '3',
			test: 'lost answers + restart of a webhook process',
			figure: `${result.runs} runs for ${result.events} events (${result.extra} duplicate runs, ${result.missing.length} missing); ${retries} retried, ${otherProcess} of them on the other process, ${afterFirstRun} after the first run had finished`,
			target: 'exactly 200 runs',
		});
		expect(result.events).toBe(200);
		expect(result.missing).toEqual([]);
		expect(result.extra).toBe(0);
	});

	it('the same event at both webhook processes in the same instant: measured rate', async () => {
		const { secret } = onlySubscription();
		const path = triggerWebhookPath(MAIN_WEBHOOK_ID);
		const events = Array.from({ length: 40 }, (_, i) =>
			signedEvent(secret, `lead_same_instant_${i}`),
		);
		const statuses: number[] = [];
		for (const event of events) {
			const answers = await Promise.all(
				cluster.webhooks.map((p) =>
					post(`${p.url}/${path}`, event.body, { 'X-Service-Signature': event.signature }),
				),
			);
			statuses.push(...answers.map((a) => a.status));
		}
		await waitForRunsOf(
			events.map((e) => e.key),
			() => triggerRuns(MAIN),
		);
		const result = tally(
			events.map((e) => e.key),
			triggerRuns(MAIN),
		);
		const rate = result.extra / result.events;
		recordFigure({
			point: '3',
			test: 'same event at both processes at once',
			figure: `${result.runs} runs for ${result.events} events: ${(rate * 100).toFixed(0)}% of events ran twice; answers ${statuses.filter((s) => s === 200).length}/${statuses.length} 200`,
			target: 'measured and stated (at most one run per process)',
		});
		expect(statuses.every((s) => s === 200)).toBe(true);
		expect(result.missing).toEqual([]);
		for (const event of events) expect(triggerRuns(MAIN).get(event.key)).toBeLessThanOrEqual(2);
	});

	it('static data under stress: re-activations while deliveries stream in, Only-New syncs beside them; subscription id, secret and marks never lost or undone', async () => {
		await cluster.activate(STRESS);
		const syncUrl = `${cluster.balancer.url}webhook/${STRESS_SYNC_PATH}`;
		// A first sync sets the mark after every lead that exists now.
		await post(syncUrl, '{}');
		await waitForQuiet(sink, 'onlyNew', 1, { quietMs: 3_000 });
		const baseline = sink.of('onlyNew').length;

		const mismatches: string[] = [];
		const checkStored = async (when: string) => {
			const data = await cluster.staticData(STRESS);
			const stored = data[`node:${TRIGGER_NODE}`] ?? {};
			const live = subscriptionsAt(STRESS_WEBHOOK_ID);
			if (live.length !== 1) mismatches.push(`${when}: ${live.length} subscriptions`);
			else if (
				stored.subscriptionId !== live[0].id ||
				(stored.signingSecret && stored.signingSecret !== live[0].secret)
			) {
				mismatches.push(`${when}: stored ${stored.subscriptionId} vs live ${live[0].id}`);
			}
		};

		const createdDuringStress: string[] = [];
		let streaming = true;
		const stream = (async () => {
			while (streaming) {
				createdDuringStress.push(sandbox.control.createChannelLead({ channel: 'web_form' }).id);
				await sleep(150);
			}
		})();
		let syncs = 0;
		const syncing = (async () => {
			while (streaming) {
				await post(syncUrl, '{}').catch(() => undefined);
				syncs++;
				await sleep(1_500);
			}
		})();
		let reactivations = 0;
		for (let cycle = 0; cycle < 5; cycle++) {
			await sleep(3_000);
			await cluster.deactivate(STRESS);
			await waitFor('the stress subscription to be deleted', () =>
				subscriptionsAt(STRESS_WEBHOOK_ID).length === 0 ? true : undefined,
			);
			await cluster.activate(STRESS);
			reactivations++;
			await sleep(1_000);
			await checkStored(`after re-activation ${reactivations}`);
		}
		await sleep(3_000);
		streaming = false;
		await Promise.all([stream, syncing]);
		await deliveriesSettled(30_000);
		await sleep(3_000);
		await post(syncUrl, '{}');
		await waitForQuiet(sink, 'onlyNew', baseline + syncs + 1, { quietMs: 5_000 }).catch(
			() => undefined,
		);
		await waitForQuiet(sink, 'stressTrigger', 1, { quietMs: 3_000 }).catch(() => undefined);
		await checkStored('at the end');

		// Every lead created during the stress is returned by exactly one sync.
		const returned = new Map<string, number>();
		for (const record of sink.of('onlyNew').slice(baseline)) {
			for (const id of record.ids as string[]) returned.set(id, (returned.get(id) ?? 0) + 1);
		}
		const twice = [...returned.values()].filter((n) => n > 1).length;
		const missing = createdDuringStress.filter((id) => !returned.has(id)).length;

		// The subscription it ends with still delivers.
		const final = sandbox.control.createChannelLead({ channel: 'web_form' });
		await attemptedFor([final.id]);
		const finalKey = keysOfLeads(sandbox, [final.id])[0];
		const ranFinal = await waitFor(
			'the run of the event after the stress',
			() => (runsPerEvent(sink, 'stressTrigger').get(finalKey) ? true : undefined),
			{ timeoutMs: 30_000 },
		).catch(() => false);
		await cluster.deactivate(STRESS);

		recordFigure({
			point: '3',
			test: 'static-data stress',
			figure: `${reactivations} re-activations, ${createdDuringStress.length} events streamed, ${syncs + 1} Only-New syncs: ${mismatches.length} stored/live subscription mismatches; Only-New leads returned twice ${twice}, never returned ${missing}; event after the stress ran: ${ranFinal === true}`,
			target: '0 mismatches, 0 twice, 0 missing, the last subscription delivers',
		});
		expect(mismatches).toEqual([]);
		expect(twice).toBe(0);
		expect(missing).toBe(0);
		expect(ranFinal).toBe(true);
	});
});

describe('5. rate limit shared by two workers', () => {
	it('4 Return-All runs of 1,000 leads over two workers, one key at 20 requests / 2 s', async () => {
		const limit = 20;
		const windowMs = 2_000;
		await cluster.activate(RETURN_ALL);
		sandbox.control.setRateLimit(limit, windowMs);
		sandbox.control.clearRequests();
		const before = sink.of('returnAll').length;
		try {
			const answers = await Promise.all(
				Array.from({ length: 4 }, () =>
					post(`${cluster.balancer.url}webhook/${RETURN_ALL_PATH}`, '{}'),
				),
			);
			expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
			await waitForQuiet(sink, 'returnAll', before + 4, {
				quietMs: 5_000,
				timeoutMs: 240_000,
			}).catch(() => undefined);
		} finally {
			sandbox.control.setRateLimit(1000, 60_000);
		}
		const runs = sink.of('returnAll').slice(before);
		const requests = sandbox.control
			.requests()
			.filter((r) => r.method === 'GET' && r.path === '/v1/leads');
		const pages = requests.filter((r) => r.status === 200).length;
		const throttled = requests.filter((r) => r.status === 429);
		const perWindow = new Map<number, number>();
		for (const r of throttled) {
			const window = Math.floor(r.at / windowMs);
			perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
		}
		const worst = Math.max(0, ...perWindow.values());
		const elapsed = requests.length ? requests[requests.length - 1].at - requests[0].at : 0;
		const ideal = (pages / limit) * windowMs;
		const counts = await cluster.executionCounts(RETURN_ALL);
		const executionIds = new Set(runs.map((r) => String(r.execution)));
		const perWorker = cluster.workers.map(
			(w) => cluster.workerExecutionIds(w).filter((id) => executionIds.has(id)).length,
		);
		const complete = runs.filter((r) => {
			const ids = r.ids as string[];
			return ids.length === SEEDED_LEADS && new Set(ids).size === SEEDED_LEADS;
		}).length;
		recordFigure({
			point: '5',
			test: 'rate limit across workers',
			figure: `${runs.length} runs (per worker ${perWorker.join(' / ')}), ${complete} with every lead once; ${pages} pages, ${throttled.length} × 429 (worst window ${worst}); failed executions ${counts.error ?? 0}; ${(elapsed / 1000).toFixed(1)} s = ${(elapsed / ideal).toFixed(2)} × pages ÷ limit × window`,
			target: 'every lead once, 0 failed, ≤ 1 × 429 per window, ≤ 1.25 ×',
		});
		expect(runs).toHaveLength(4);
		expect(complete).toBe(4);
		expect(perWorker.every((n) => n > 0)).toBe(true);
		expect(counts.error ?? 0).toBe(0);
		expect(worst).toBeLessThanOrEqual(1);
		expect(elapsed).toBeLessThanOrEqual(1.25 * ideal);
	});
});

describe('6. the examples in queue mode', () => {
	it('qualified-lead round robin: a qualified lead is assigned end to end through the cluster', async () => {
		const workflow = example('qualified-lead-round-robin.json');
		await cluster.activate(workflow.id);
		const roster = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz'];
		const lead = sandbox.control
			.state()
			.leads.find((l) => l.organization_id === 'org_alpha' && l.status === 'new')!;
		sandbox.control.qualifyLead(lead.id, 88);
		const assigned = await waitFor(
			'the lead to be assigned by the workflow',
			() => {
				const now = sandbox.control.state().leads.find((l) => l.id === lead.id)!;
				return now.status === 'assigned' ? now : undefined;
			},
			{ timeoutMs: 60_000 },
		).catch(() => undefined);
		const counts = await cluster.executionCounts(workflow.id);
		await cluster.deactivate(workflow.id);
		recordFigure({
			point: '6',
			test: 'round-robin example',
			figure: `lead ${assigned ? `assigned to ${assigned.assigned_to}` : 'not assigned'}; executions ${JSON.stringify(counts)}`,
			target: 'assigned to an advisor of the roster, 1 successful execution',
		});
		expect(assigned).toBeDefined();
		expect(roster).toContain(assigned!.assigned_to);
		expect(counts).toEqual({ success: 1 });
	});

	it('the scheduled examples run on the workers (manual runs offloaded)', async () => {
		const session = await N8nSession.signIn(cluster.mainServer());
		const figures: string[] = [];
		for (const file of ['leads-to-spreadsheet.json', 'stalled-conversation-nudge.json']) {
			const workflow = example(file);
			sandbox.control.clearRequests();
			const res = await session.request('POST', `/workflows/${workflow.id}/run`, {
				triggerToStartFrom: { name: 'Run now' },
			});
			expect(res.status).toBe(200);
			const counts = await waitFor(
				`the run of ${workflow.id}`,
				async () => {
					const now = await cluster.executionCounts(workflow.id);
					return (now.success ?? 0) + (now.error ?? 0) + (now.crashed ?? 0) > 0 ? now : undefined;
				},
				{ timeoutMs: 120_000 },
			);
			const executionId = String(res.json?.data?.executionId ?? '');
			const onWorker = cluster.workers.some((w) =>
				cluster.workerExecutionIds(w).includes(executionId),
			);
			const calls = sandbox.control.requests().length;
			figures.push(
				`${workflow.id}: ${JSON.stringify(counts)}, on a worker ${onWorker}, ${calls} service calls`,
			);
			expect(counts).toEqual({ success: 1 });
			expect(onWorker).toBe(true);
			expect(calls).toBeGreaterThan(0);
		}
		recordFigure({
			point: '6',
			test: 'scheduled examples',
			figure: figures.join('; '),
			target: 'each succeeds on a worker',
		});
	});
});

describe('7. answering only what n8n accepted: SIGKILL of a webhook process', () => {
	it('SIGKILL of a webhook process in the middle of 200 events: every event the service counts as delivered has its run', async () => {
		if (subscriptionsAt(MAIN_WEBHOOK_ID).length === 0) await cluster.activate(MAIN);
		sandbox.control.setOptions({ retryScale: 0.05 });
		sandbox.control.clearDeliveries();
		cluster.balancer.clearLog();
		const victim = cluster.webhooks[0];
		let killedAt = 0;
		let killing: Promise<void> | undefined;
		let leadIds: string[];
		try {
			leadIds = await streamLeadEvents(sandbox, 200, 10, () => {
				killedAt = Date.now();
				killing = victim.kill();
			});
			await killing;
			await victim.start();
			await deliveriesSettled(150_000);
		} finally {
			sandbox.control.setOptions({ retryScale: 1 });
			if (!victim.running) await victim.start();
		}
		const keys = keysOfLeads(sandbox, leadIds);
		await waitForRunsOf(keys, () => triggerRuns(MAIN));
		const subscriptionId = onlySubscription().id;
		const delivered = new Set(deliveredKeys(sandbox, subscriptionId));
		const runs = triggerRuns(MAIN);
		const deliveredWithoutRun = [...delivered].filter((k) => !runs.has(k));
		const result = tally(keys, runs);
		const cutAtKill = cluster.balancer.log.filter((e) => e.status === 502).length;
		recordFigure({
			point: '7',
			test: 'SIGKILL of a webhook process',
			figure: `${delivered.size}/${keys.length} events counted delivered; ${deliveredWithoutRun.length} of them without a run; ${result.runs} runs (${result.extra} duplicates); ${cutAtKill} requests cut by the kill (502, retried)`,
			target: '0 delivered without a run',
		});
		expect(killedAt).toBeGreaterThan(0);
		expect(deliveredWithoutRun).toEqual([]);
	});
});

describe('3 (other paths). runs per event where the trigger cannot reach zero', () => {
	// Enabled once the branches that build these paths are merged: each runs its workflow through
	// this cluster with countRunsPerEvent (support/runs.ts) under the same lost answers and
	// restart as the trigger test above, and asserts exactly one run per event.
	it.skip('Webhook node + Lead Conversations → Event → Verify (n8n’s de-duplication on the workers): 200 events → 200 runs [needs the Verify Event operation]', () =>
		undefined);
	it.skip('polling trigger on the leader main: every lead once across polls and a restart of main [needs the polling trigger]', () =>
		undefined);
});
