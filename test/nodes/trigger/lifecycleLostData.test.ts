// A trigger whose workflow's static data was lost.

import { type RunningSandbox } from '../../../harness/engine';
import { eventBody, signedHeaders, storedSecret, triggerParameters } from './fixtures';
import {
	REPLACED_SUBSCRIPTION,
	describeNoSecretLeak,
	failWebhookCalls,
	loseStaticData,
	newOnlySubscription,
	trigger,
	useLifecycleSetup,
	warningsOf,
	webhookCalls,
} from './lifecycleSetup';

const setup = useLifecycleSetup();
let sandbox: RunningSandbox;
beforeAll(() => {
	({ sandbox } = setup);
});

describe("a trigger whose workflow's static data was lost (within one n8n process)", () => {
	it('a trigger whose static data was lost deletes its previous subscription on deactivation, leaving none', async () => {
		const harness = trigger();
		await harness.activate();
		const subscriptionId = String(harness.staticData.subscriptionId);
		loseStaticData(harness);
		sandbox.control.clearRequests();

		expect(await harness.deactivate()).toBe(true);

		expect(webhookCalls()).toEqual(['DELETE /v1/webhooks/{id} 204']);
		expect(sandbox.control.requests()[0].path).toBe(`/v1/webhooks/${subscriptionId}`);
		expect(sandbox.control.webhooks()).toEqual([]);
		expect(harness.staticData).toEqual({});
		expect(warningsOf(harness)).toEqual([]);
	});

	it('takes its subscription over on the next activation: still one subscription, the same secret', async () => {
		const harness = trigger();
		await harness.activate();
		const before = { ...harness.staticData };
		loseStaticData(harness);
		sandbox.control.clearRequests();

		await harness.activate();

		expect(webhookCalls()).toEqual(['GET /v1/webhooks/{id} 200']);
		expect(harness.staticData).toEqual(before);
		expect(sandbox.control.webhooks().map((subscription) => subscription.id)).toEqual([
			before.subscriptionId,
		]);
		expect(harness.logs.some((line) => line.includes('had lost subscription'))).toBe(true);
	});

	it('still verifies deliveries with the secret the static data lost', async () => {
		const harness = trigger();
		await harness.activate();
		const secret = storedSecret(harness);
		loseStaticData(harness);
		const body = eventBody('lead.qualified', { id: 'lead_lost_1', score: 90 });

		const accepted = await harness.deliver({ body, headers: signedHeaders(body, secret) });
		const forged = await harness.deliver({ body, headers: signedHeaders(body, 'guessed') });

		expect([accepted.statusCode, accepted.runs.length]).toEqual([200, 1]);
		expect([forged.statusCode, forged.runs.length]).toEqual([401, 0]);
	});

	it('with other events chosen meanwhile, deletes the remembered subscription before subscribing to them', async () => {
		const harness = trigger(triggerParameters({ events: ['lead.qualified'] }));
		await harness.activate();
		const old = sandbox.control.webhooks()[0];
		loseStaticData(harness);
		harness.node.parameters.events = ['lead.qualified', 'lead.assigned'];
		sandbox.control.clearRequests();

		await harness.activate();

		expect(webhookCalls()).toEqual(REPLACED_SUBSCRIPTION);
		const subscription = newOnlySubscription(old.id);
		expect(subscription.events).toEqual(['lead.qualified', 'lead.assigned']);
	});

	it('still retries a DELETE that failed at deactivation when the record of it was lost', async () => {
		const harness = trigger();
		await harness.activate();
		const leftover = String(harness.staticData.subscriptionId);
		failWebhookCalls('DELETE', 403);
		await harness.deactivate();
		sandbox.control.clearFaults();
		loseStaticData(harness);
		sandbox.control.clearRequests();

		await harness.activate();

		expect(webhookCalls()).toEqual(REPLACED_SUBSCRIPTION);
		newOnlySubscription(leftover);
		expect(harness.staticData.undeletedSubscriptionIds).toBeUndefined();
	});

	it('leaves other triggers alone: each one finds only its own subscription', async () => {
		const first = trigger();
		const second = trigger();
		await first.activate();
		await second.activate();
		const secondId = second.staticData.subscriptionId;
		loseStaticData(first);

		await first.deactivate();

		expect(sandbox.control.webhooks().map((subscription) => subscription.id)).toEqual([secondId]);
		await second.deactivate();
		expect(sandbox.control.webhooks()).toEqual([]);
	});
});

describeNoSecretLeak();
