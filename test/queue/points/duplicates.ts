import { triggerWebhookPath } from '../../../harness/queue/workflows';
import { recordFigure } from '../support/figures';
import {
	keysOfLeads,
	post,
	signedEvent,
	streamLeadEvents,
	tally,
	waitForRunsOf,
} from '../support/runs';
import { describeRouting, routingOf } from '../support/routing';
import { share, withLostAnswersAndRestart } from '../support/scenarios';
import { deliveryKeysConsistent, onlySubscription, triggerRuns } from '../support/service';
import { IDS, suite, WEBHOOK_IDS } from '../support/suite';

// Point 3, the webhook trigger: it remembers deliveries in the memory of the webhook process
// that took them (nothing shared and locked is open to a verified community node), so copies
// that reach the other process, or arrive after a restart, run again. What must hold: no event
// is lost, every copy of one event carries the same delivery_key, and the duplicate rate of each
// scenario is measured for the README.

/** Events that ran more than once, as "n of m (p %)". */
function duplicateRate(counts: Map<string, number>, keys: string[]): string {
	return share(keys.filter((key) => (counts.get(key) ?? 0) > 1).length, keys.length);
}

export function triggerDuplicateSpecs(): void {
	it('first answers lost, retries on either process, a webhook process restarted half-way: every event runs at least once, the duplicate rate measured', async () => {
		const { sandbox } = suite;
		const leadIds = await withLostAnswersAndRestart(onlySubscription().id, 200, (atHalf) =>
			streamLeadEvents(sandbox, 200, 10, atHalf),
		);
		const keys = keysOfLeads(sandbox, leadIds);
		await waitForRunsOf(keys, () => triggerRuns(IDS.main));
		const runs = triggerRuns(IDS.main);
		const result = tally(keys, runs);
		const routing = routingOf(`/${triggerWebhookPath(WEBHOOK_IDS.main)}`, 'trigger');
		const deliveryKeys = deliveryKeysConsistent('trigger', IDS.main, keys);
		recordFigure({
			point: '3',
			test: 'trigger: lost answers + restart of a webhook process',
			figure: `${result.runs} runs for ${result.events} events, ${result.missing.length} without a run; ran twice: ${duplicateRate(runs, keys)}; ${describeRouting(routing)}; copies of one event share one delivery_key: ${deliveryKeys.everyRunSameKey}`,
			target: 'every event ≥ 1 run; duplicate rate measured',
		});
		expect(result.events).toBe(200);
		expect(result.missing).toEqual([]);
		expect(deliveryKeys).toEqual({ events: 200, everyRunSameKey: true, distinct: true });
	});

	it('the same event at both webhook processes in the same instant: every event runs, the duplicate rate measured', async () => {
		const { cluster } = suite;
		const { secret } = onlySubscription();
		const path = triggerWebhookPath(WEBHOOK_IDS.main);
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
		const keys = events.map((e) => e.key);
		await waitForRunsOf(keys, () => triggerRuns(IDS.main));
		const runs = triggerRuns(IDS.main);
		const result = tally(keys, runs);
		recordFigure({
			point: '3',
			test: 'trigger: same event at both processes at once',
			figure: `${result.runs} runs for ${result.events} events; ran twice: ${duplicateRate(runs, keys)}; answers ${statuses.filter((s) => s === 200).length}/${statuses.length} 200`,
			target: 'every event ≥ 1 run, at most one per process; rate measured',
		});
		expect(statuses.every((s) => s === 200)).toBe(true);
		expect(result.missing).toEqual([]);
		for (const key of keys) expect(runs.get(key)).toBeLessThanOrEqual(2);
	});
}
