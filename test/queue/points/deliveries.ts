import { triggerWebhookPath } from '../../../harness/queue/workflows';
import { recordFigure } from '../support/figures';
import { describeAnswerTimes } from '../support/routing';
import {
	keysOfLeads,
	post,
	signedEvent,
	sleep,
	STREAM_EVENTS,
	STREAM_PER_SECOND,
	streamLeadEvents,
	tally,
	waitForRunsOf,
} from '../support/runs';
import {
	deliveredToSubscription,
	deliveryKeysConsistent,
	onlySubscription,
	totalExecutions,
	triggerRuns,
	withMainTriggerActive,
} from '../support/service';
import { IDS, suite, WEBHOOK_IDS } from '../support/suite';

// Point 2: signed deliveries through the balancer reach either webhook process and each starts
// one run on a worker; forged, unsigned or altered ones are refused by either process.

export function deliverySpecs(): void {
	withMainTriggerActive();

	it(`${STREAM_EVENTS} events → ${STREAM_EVENTS} runs, with deliveries on both webhook processes`, async () => {
		const { cluster, sandbox } = suite;
		cluster.balancer.clearLog();
		sandbox.control.clearDeliveries();
		const started = Date.now();
		const leadIds = await streamLeadEvents(sandbox, STREAM_EVENTS, STREAM_PER_SECOND);
		await deliveredToSubscription(onlySubscription().id, STREAM_EVENTS, 60_000);
		const keys = keysOfLeads(sandbox, leadIds);
		await waitForRunsOf(keys, () => triggerRuns(IDS.main));
		const result = tally(keys, triggerRuns(IDS.main));
		const perProcess = cluster.balancer.perBackend();
		const failedAttempts = sandbox.control.deliveries().filter((d) => !d.ok).length;
		const deliveryKeys = deliveryKeysConsistent('trigger', IDS.main, keys);
		recordFigure({
			point: '2',
			test: `${STREAM_EVENTS} events at ${STREAM_PER_SECOND}/s`,
			figure: `${result.runs} runs for ${result.events} events (${result.missing.length} missing, ${result.extra} extra); deliveries per webhook process ${perProcess.join(' / ')}, ${describeAnswerTimes(`/${triggerWebhookPath(WEBHOOK_IDS.main)}`)}; ${failedAttempts} failed attempts; each run's delivery_key its event's own: ${deliveryKeys.everyRunSameKey && deliveryKeys.distinct}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
			target: `${STREAM_EVENTS} runs, both processes used`,
		});
		expect(result.events).toBe(STREAM_EVENTS);
		expect(result.missing).toEqual([]);
		expect(result.extra).toBe(0);
		expect(perProcess.every((n) => n > 0)).toBe(true);
		expect(deliveryKeys).toEqual({ events: STREAM_EVENTS, everyRunSameKey: true, distinct: true });
	});

	it('forged or unsigned deliveries → 401 on either process, and no run', async () => {
		const { cluster } = suite;
		const { secret } = onlySubscription();
		const before = await totalExecutions(IDS.main);
		const path = triggerWebhookPath(WEBHOOK_IDS.main);
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
			const url = `${target}/${path}`;
			statuses.push(
				(await post(url, forged.body, { 'X-Service-Signature': forged.signature })).status,
			);
			statuses.push((await post(url, unsigned.body)).status);
			const altered = tampered.body.replace('"score":0', '"score":99');
			statuses.push(
				(await post(url, altered, { 'X-Service-Signature': tampered.signature })).status,
			);
			keys.push(forged.key, unsigned.key, tampered.key);
		}
		await sleep(4_000);
		const after = await totalExecutions(IDS.main);
		const runs = triggerRuns(IDS.main);
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
}
