import { triggerWebhookPath } from '../../../harness/queue/workflows';
import { waitFor } from '../../../harness/real-n8n/processes';
import { recordFigure } from '../support/figures';
import { keysOfLeads, post, signedEvent, sleep } from '../support/runs';
import {
	attemptedFor,
	onlySubscription,
	subscriptionsAt,
	triggerRuns,
	webhookRequests,
} from '../support/service';
import { IDS, suite, WEBHOOK_IDS } from '../support/suite';

// Point 1: only main runs the trigger's lifecycle; restarts of main call none of it; the webhook
// processes read the secret main stored on every request.

export function activationSpecs(): void {
	let firstSubscription: { id: string; secret: string };

	it('activation from main subscribes once, at N8N_WEBHOOK_URL (the public https address)', async () => {
		await suite.cluster.activate(IDS.main);
		const subscriptions = subscriptionsAt(WEBHOOK_IDS.main);
		const creations = webhookRequests('POST');
		recordFigure({
			point: '1',
			test: 'activation from main',
			figure: `${subscriptions.length} subscription(s), ${creations.length} POST /webhooks`,
			target: 'exactly 1',
		});
		expect(subscriptions).toHaveLength(1);
		expect(creations).toHaveLength(1);
		// The address the service delivers to: the fault proxy in front of nginx.
		expect(subscriptions[0].url).toBe(
			`${suite.cluster.faults.url}${triggerWebhookPath(WEBHOOK_IDS.main)}`,
		);
		firstSubscription = { id: subscriptions[0].id, secret: subscriptions[0].secret };
	});

	it('a restart of main keeps exactly one subscription, which still delivers', async () => {
		await suite.cluster.main.restart();
		await sleep(2_000);
		const count = subscriptionsAt(WEBHOOK_IDS.main).length;
		const lead = suite.sandbox.control.createChannelLead({ channel: 'web_form' });
		await attemptedFor([lead.id]);
		const [key] = keysOfLeads(suite.sandbox, [lead.id]);
		await waitFor(
			'the run of the event sent after the restart',
			() => (triggerRuns(IDS.main).get(key) ? true : undefined),
			{ timeoutMs: 60_000 },
		);
		recordFigure({
			point: '1',
			test: 'restart of main',
			figure: `subscriptions after the restart: ${count}; POST /webhooks ${webhookRequests('POST').length}, DELETE ${webhookRequests('DELETE').length}; an event after it: ${triggerRuns(IDS.main).get(key)} run`,
			target: 'exactly 1 subscription, the same one, no new POST or DELETE',
		});
		expect(count).toBe(1);
		expect(onlySubscription().id).toBe(firstSubscription.id);
		expect(webhookRequests('POST')).toHaveLength(1);
		expect(webhookRequests('DELETE')).toHaveLength(0);
		expect(triggerRuns(IDS.main).get(key)).toBe(1);
	});

	it('deactivation from main unsubscribes', async () => {
		await suite.cluster.deactivate(IDS.main);
		await waitFor('the subscription to be deleted', () =>
			subscriptionsAt(WEBHOOK_IDS.main).length === 0 ? true : undefined,
		);
		const deletions = webhookRequests('DELETE');
		recordFigure({
			point: '1',
			test: 'deactivation from main',
			figure: `${subscriptionsAt(WEBHOOK_IDS.main).length} subscription(s) left, ${deletions.length} DELETE`,
			target: '0 left',
		});
		expect(deletions).toHaveLength(1);
		expect(deletions[0].status).toBe(204);
	});

	it('re-activation’s new secret is used by both webhook processes at once', async () => {
		await suite.cluster.activate(IDS.main);
		const renewed = onlySubscription();
		expect(renewed.id).not.toBe(firstSubscription.id);
		expect(renewed.secret).not.toBe(firstSubscription.secret);
		const path = triggerWebhookPath(WEBHOOK_IDS.main);
		const outcomes: string[] = [];
		const acceptedKeys: string[] = [];
		for (const process of suite.cluster.webhooks) {
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
			() => (acceptedKeys.every((key) => triggerRuns(IDS.main).has(key)) ? true : undefined),
			{ timeoutMs: 60_000 },
		).catch(() => undefined);
		await sleep(2_000);
		const runs = triggerRuns(IDS.main);
		recordFigure({
			point: '1',
			test: 're-activation’s new secret',
			figure: `${outcomes.join('; ')}; runs of the new-secret events: ${acceptedKeys.map((k) => runs.get(k) ?? 0).join(', ')}`,
			target: 'new secret 200 and one run on both processes; old secret 401',
		});
		for (const key of acceptedKeys) expect(runs.get(key)).toBe(1);
	});
}
