import { triggerWebhookPath } from '../../../harness/queue/workflows';
import { recordFigure } from '../support/figures';
import { post, signedEvent, tally, waitForRunsOf } from '../support/runs';
import { share } from '../support/scenarios';
import { onlySubscription, triggerRuns, withMainTriggerActive } from '../support/service';
import { IDS, suite, WEBHOOK_IDS } from '../support/suite';

// Point 3, the webhook trigger: it remembers deliveries in the memory of the webhook process
// that took them (nothing shared and locked is open to a verified community node), so copies
// that reach the other process, or arrive after a restart, run again (lostAnswers.ts). Here the
// worst case: the same event at both processes at once. No event is lost, each runs at most once
// per process, and the duplicate rate is measured for the README.

/** Events that ran more than once, as "n of m (p %)". */
export function duplicateRate(counts: Map<string, number>, keys: string[]): string {
	return share(keys.filter((key) => (counts.get(key) ?? 0) > 1).length, keys.length);
}

/** Events sent to both webhook processes at once. */
const SAME_INSTANT_EVENTS = 10;

export function sameInstantSpecs(): void {
	withMainTriggerActive();

	it('the same event at both webhook processes in the same instant: every event runs, the duplicate rate measured', async () => {
		const { cluster } = suite;
		const { secret } = onlySubscription();
		const path = triggerWebhookPath(WEBHOOK_IDS.main);
		const events = Array.from({ length: SAME_INSTANT_EVENTS }, (_, i) =>
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
