import { recordFigure } from '../support/figures';
import {
	deliveredKeys,
	keysOfLeads,
	streamLeadEvents,
	tally,
	waitForRunsOf,
} from '../support/runs';
import {
	deliveriesSettled,
	onlySubscription,
	subscriptionsAt,
	triggerRuns,
} from '../support/service';
import { IDS, suite, WEBHOOK_IDS } from '../support/suite';

// Point 7: the trigger answers the service only once n8n has accepted the run (in queue mode,
// once its job is enqueued). A webhook process killed with SIGKILL in the middle of a stream
// loses what it held in memory; every event the service counts as delivered must still run.

export function sigkillSpecs(): void {
	it('SIGKILL of a webhook process in the middle of 200 events: every event the service counts as delivered has its run', async () => {
		const { cluster, sandbox } = suite;
		if (subscriptionsAt(WEBHOOK_IDS.main).length === 0) await cluster.activate(IDS.main);
		// Retries 3 s, 15 s and 90 s after the first failure: the cut requests come back soon.
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
			await deliveriesSettled(60_000);
		} finally {
			sandbox.control.setOptions({ retryScale: 1 });
			if (!victim.running) await victim.start();
		}
		const keys = keysOfLeads(sandbox, leadIds);
		await waitForRunsOf(keys, () => triggerRuns(IDS.main));
		const delivered = new Set(deliveredKeys(sandbox, onlySubscription().id));
		const runs = triggerRuns(IDS.main);
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
}
