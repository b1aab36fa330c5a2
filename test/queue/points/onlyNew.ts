import { TRIGGER_NODE } from '../../../harness/queue/workflows';
import { waitFor } from '../../../harness/real-n8n/processes';
import { recordFigure } from '../support/figures';
import { post, waitForQuiet } from '../support/runs';
import { attemptedFor, subscriptionsAt } from '../support/service';
import { IDS, PATHS, suite, WEBHOOK_IDS } from '../support/suite';

// Measured, for the README: n8n 2.41.1 in queue mode starts a worker's execution without the
// workflow's static data (the execution's stored copy of the workflow leaves it out, and the
// worker reloads it only for resumed executions), then saves whatever that run wrote as the
// whole column. So Get Many leads with "Only New Since Last Run" never sees its mark on a
// worker, and its save wipes what a Lead Conversations Trigger in the same workflow stored.
// What the package must still do: deactivation deletes the subscription (main remembers it).

async function sync(): Promise<string[]> {
	const before = suite.sink.of('onlyNew').length;
	await post(`${suite.cluster.balancer.url}webhook/${PATHS.onlyNewSync}`, '{}');
	await waitForQuiet(suite.sink, 'onlyNew', before + 1, { quietMs: 2_000, timeoutMs: 60_000 });
	return suite.sink.of('onlyNew')[before].ids as string[];
}

export function onlyNewSpecs(): void {
	it('a trigger beside Only New Since Last Run on the workers: what n8n 2.41.1 does to static data, and deactivation still unsubscribes', async () => {
		const { cluster, sandbox } = suite;
		await cluster.activate(IDS.onlyNew);
		const subscription = subscriptionsAt(WEBHOOK_IDS.onlyNew)[0];
		const first = await sync();
		const created = [0, 1, 2].map(() => sandbox.control.createChannelLead().id);
		await attemptedFor(created);
		const second = await sync();
		const stored = (await cluster.db.staticData(IDS.onlyNew))[`node:${TRIGGER_NODE}`] ?? {};
		// A delivery after the sync: signed with the live secret, checked against what is stored.
		const probe = sandbox.control.createChannelLead().id;
		await attemptedFor([probe]);
		const probeAnswer = sandbox.control
			.deliveries()
			.find((d) => d.subscriptionId === subscription.id && d.body.includes(probe));
		await cluster.deactivate(IDS.onlyNew);
		const left = await waitFor(
			'the subscription to be deleted',
			() => (subscriptionsAt(WEBHOOK_IDS.onlyNew).length === 0 ? 0 : undefined),
			{ timeoutMs: 30_000 },
		).catch(() => subscriptionsAt(WEBHOOK_IDS.onlyNew).length);
		recordFigure({
			point: '3',
			test: 'Only New Since Last Run beside the trigger, on the workers',
			figure: `first sync ${first.length} leads; after 3 new leads the second sync returned ${second.length} (its mark ${second.length === created.length ? 'was' : 'was not'} handed to the worker); subscription id in static data after the syncs: ${stored.subscriptionId === subscription.id ? 'kept' : 'gone'}; a delivery after them answered ${probeAnswer?.status ?? 'nothing'}; subscriptions left after deactivation: ${left}`,
			target: 'measured (n8n 2.41.1); deactivation still unsubscribes',
		});
		expect(second).toEqual(expect.arrayContaining(created));
		expect(left).toBe(0);
	});
}
