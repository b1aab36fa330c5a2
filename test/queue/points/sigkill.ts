import { triggerWebhookPath } from '../../../harness/queue/workflows';
import { recordFigure } from '../support/figures';
import {
	deliveredKeys,
	keysOfLeads,
	post,
	signedEvent,
	STREAM_EVENTS,
	STREAM_PER_SECOND,
	streamLeadEvents,
	tally,
	waitForRunsOf,
} from '../support/runs';
import {
	deliveredToSubscription,
	onlySubscription,
	triggerRuns,
	withMainTriggerActive,
} from '../support/service';
import { IDS, suite, WEBHOOK_IDS } from '../support/suite';

// Point 7: the trigger answers the service only once n8n has accepted the run (in queue mode,
// once its job is enqueued). A webhook process killed with SIGKILL in the middle of a stream
// loses what it held in memory; every event the service counts as delivered must still run.

/** Both tests of point 7, with the trigger workflow active for them. */
export function acceptedRunSpecs(): void {
	withMainTriggerActive();
	describe('SIGKILL of a webhook process', sigkillSpecs);
	describe('n8n cannot create the run', refusedRunSpecs);
}

function sigkillSpecs(): void {
	it(`SIGKILL of a webhook process in the middle of ${STREAM_EVENTS} events: every event the service counts as delivered has its run`, async () => {
		const { cluster, sandbox } = suite;
		// Retries 3 s, 15 s and 90 s after the first failure: the cut requests come back soon.
		sandbox.control.setOptions({ retryScale: 0.05 });
		sandbox.control.clearDeliveries();
		cluster.balancer.clearLog();
		const victim = cluster.webhooks[0];
		let killedAt = 0;
		let back: Promise<void> | undefined;
		let leadIds: string[];
		try {
			leadIds = await streamLeadEvents(sandbox, STREAM_EVENTS, STREAM_PER_SECOND, () => {
				killedAt = Date.now();
				// Started again once dead; the retries meanwhile reach the other process.
				back = victim.kill().then(() => victim.start());
			});
			await deliveredToSubscription(onlySubscription().id, STREAM_EVENTS, 60_000);
		} finally {
			sandbox.control.setOptions({ retryScale: 1 });
			await back?.catch(() => undefined);
			if (!victim.running) await victim.start();
		}
		const keys = keysOfLeads(sandbox, leadIds);
		await waitForRunsOf(keys, () => triggerRuns(IDS.main));
		const delivered = new Set(deliveredKeys(sandbox, onlySubscription().id));
		const runs = triggerRuns(IDS.main);
		const deliveredWithoutRun = [...delivered].filter((k) => !runs.has(k));
		const result = tally(keys, runs);
		const cutAtKill = cluster.balancer.log.filter((e) => e.status === 502).length;
		// Refused by the killed process while it was down, and sent on to the other by nginx.
		const sentOn = cluster.balancer.log.filter((e) => e.tried.length > 1 && e.status < 300).length;
		recordFigure({
			point: '7',
			test: 'SIGKILL of a webhook process',
			figure: `${delivered.size}/${keys.length} events counted delivered; ${deliveredWithoutRun.length} of them without a run; ${result.runs} runs (${result.extra} duplicates); ${cutAtKill} requests cut by the kill (502, retried); ${sentOn} refused by the killed process and answered by the other (nginx proxy_next_upstream)`,
			target: '0 delivered without a run',
		});
		expect(killedAt).toBeGreaterThan(0);
		expect(deliveredWithoutRun).toEqual([]);
	});
}

/** Makes Postgres refuse every new execution of one workflow until the returned undo runs. */
async function refuseExecutionsOf(workflowId: string): Promise<() => Promise<void>> {
	const { postgres } = suite.cluster;
	await postgres.query(
		`CREATE OR REPLACE FUNCTION lc_refuse_execution() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'execution refused by the test'; END $$ LANGUAGE plpgsql`,
	);
	await postgres.query(
		`CREATE TRIGGER lc_refuse_execution BEFORE INSERT ON execution_entity FOR EACH ROW WHEN (NEW."workflowId" = '${workflowId}') EXECUTE FUNCTION lc_refuse_execution()`,
	);
	return async () => {
		await postgres.query('DROP TRIGGER IF EXISTS lc_refuse_execution ON execution_entity');
	};
}

function refusedRunSpecs(): void {
	it('n8n cannot create the run and answers an error: the retry of that delivery, on the same process, starts the run', async () => {
		const { cluster } = suite;
		const { secret } = onlySubscription();
		const url = `${cluster.webhooks[0].url}/${triggerWebhookPath(WEBHOOK_IDS.main)}`;
		const events = [0, 1, 2].map((i) => signedEvent(secret, `lead_refused_${i}`));
		const send = (e: (typeof events)[number]) =>
			post(url, e.body, { 'X-Service-Signature': e.signature });
		const allow = await refuseExecutionsOf(IDS.main);
		let refused: number[];
		try {
			refused = (await Promise.all(events.map(send))).map((a) => a.status);
		} finally {
			await allow();
		}
		const retried = (await Promise.all(events.map(send))).map((a) => a.status);
		const keys = events.map((e) => e.key);
		await waitForRunsOf(keys, () => triggerRuns(IDS.main), { quietMs: 3_000, timeoutMs: 60_000 });
		const runs = triggerRuns(IDS.main);
		recordFigure({
			point: '7',
			test: 'n8n answers an error, the retry comes back',
			figure: `first answers ${refused.join(', ')} (no run created); retries on the same process ${retried.join(', ')}; runs ${keys.map((k) => runs.get(k) ?? 0).join(', ')}`,
			target: 'an error answer, then one run per event',
		});
		expect(refused.every((status) => status >= 500)).toBe(true);
		expect(retried).toEqual([200, 200, 200]);
		for (const key of keys) expect(runs.get(key)).toBe(1);
	});
}
