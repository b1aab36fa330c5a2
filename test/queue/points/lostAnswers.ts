import { triggerWebhookPath } from '../../../harness/queue/workflows';
import { recordFigure } from '../support/figures';
import {
	deliveredEventKeys,
	keysOfLeads,
	STREAM_PER_SECOND,
	streamEvents,
	tally,
	waitForQuiet,
	waitForRunsOf,
} from '../support/runs';
import { describeRouting, routingOf } from '../support/routing';
import { withLostAnswersAndRestart } from '../support/scenarios';
import {
	deliveryKeysConsistent,
	onlySubscription,
	triggerRuns,
	withMainTriggerActive,
} from '../support/service';
import { IDS, PATHS, suite, WEBHOOK_IDS } from '../support/suite';
import { duplicateRate } from './duplicates';
import { rejectedBy, verifiedRuns } from './verifyPath';

// Point 3 under lost first answers and a webhook process restarted half-way, for both paths in
// one stream: each step makes a new lead (a delivery to the Lead Conversations Trigger) and books
// an appointment (a delivery to Webhook → Event: Verify), at half the stream rate, so the
// deliveries keep to STREAM_PER_SECOND. The trigger remembers deliveries in the memory of the
// webhook process that took them, so copies that reach the other process, or arrive after the
// restart, run again: no event may be lost, every copy carries its event's delivery_key, and the
// duplicate rate is measured. Verify records each event in n8n's de-duplication store in
// Postgres, shared by all workers: exactly one verified item per event.

/** Steps of the stream: as many events for each path, twice as many deliveries (and retries). */
const EVENTS = 60;

export function lostAnswerSpecs(): void {
	withMainTriggerActive();
	let leadIds: string[] = [];
	let duplicatesBefore = 0;

	beforeAll(async () => {
		const { cluster, sandbox } = suite;
		await cluster.activate(IDS.verify);
		duplicatesBefore = rejectedBy('duplicate');
		const booked = sandbox.control
			.state()
			.leads.filter((l) => l.organization_id === 'org_alpha')
			.slice(0, EVENTS);
		leadIds = await withLostAnswersAndRestart(
			[onlySubscription().id, suite.verifySubscription.id],
			EVENTS,
			(atHalf) =>
				streamEvents(
					EVENTS,
					STREAM_PER_SECOND / 2,
					(i) => {
						sandbox.control.bookAppointment(booked[i].id);
						return sandbox.control.createChannelLead({ channel: 'web_form' }).id;
					},
					atHalf,
				),
		);
	}, 300_000);

	afterAll(async () => {
		await suite.cluster.deactivate(IDS.verify);
	});

	it('the trigger: every event runs at least once, copies share one delivery_key, the duplicate rate measured', async () => {
		const keys = keysOfLeads(suite.sandbox, leadIds);
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
		expect(result.events).toBe(EVENTS);
		expect(result.missing).toEqual([]);
		expect(deliveryKeys).toEqual({ events: EVENTS, everyRunSameKey: true, distinct: true });
	});

	it(`Webhook → Event: Verify: ${EVENTS} events → exactly ${EVENTS} verified items`, async () => {
		const { sandbox } = suite;
		const keys = deliveredEventKeys(sandbox, suite.verifySubscription.id);
		await waitForRunsOf(keys, verifiedRuns);
		await waitForQuiet(suite.sink, 'rejected', 0, { quietMs: 3_000 });
		const result = tally(keys, verifiedRuns());
		const routing = routingOf(`/webhook/${PATHS.verify}`, 'verified');
		recordFigure({
			point: '3',
			test: 'Webhook → Verify: lost answers + restart of a webhook process',
			figure: `${result.runs} verified items for ${result.events} events (${result.missing.length} missing, ${result.extra} twice); ${rejectedBy('duplicate') - duplicatesBefore} copies rejected as duplicate; ${describeRouting(routing)}`,
			target: `exactly ${EVENTS} verified items`,
		});
		expect(result.events).toBe(EVENTS);
		expect(result.missing).toEqual([]);
		expect(result.extra).toBe(0);
		expect(routing.otherProcess).toBeGreaterThan(0);
	});
}
