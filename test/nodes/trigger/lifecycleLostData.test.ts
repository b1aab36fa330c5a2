// A trigger whose workflow's static data was lost.

import { eventBody, signedHeaders, storedSecret, triggerParameters } from './fixtures';
import {
	REPLACED_SUBSCRIPTION,
	loseStaticData,
	warningsOf,
	useLifecycleSetup,
} from './lifecycleSetup';

const setup = useLifecycleSetup();

describe("a trigger whose workflow's static data was lost (within one n8n process)", () => {
	it('a trigger whose static data was lost deletes its previous subscription on deactivation, leaving none', async () => {
		const harness = setup.trigger();
		await harness.activate();
		const subscriptionId = String(harness.staticData.subscriptionId);
		loseStaticData(harness);
		setup.sandbox.control.clearRequests();

		expect(await harness.deactivate()).toBe(true);

		expect(setup.webhookCalls()).toEqual(['DELETE /v1/webhooks/{id} 204']);
		expect(setup.sandbox.control.requests()[0].path).toBe(`/v1/webhooks/${subscriptionId}`);
		expect(setup.sandbox.control.webhooks()).toEqual([]);
		expect(harness.staticData).toEqual({});
		expect(warningsOf(harness)).toEqual([]);
	});

	it('takes its subscription over on the next activation: still one subscription, the same secret', async () => {
		const harness = setup.trigger();
		await harness.activate();
		const before = { ...harness.staticData };
		loseStaticData(harness);
		setup.sandbox.control.clearRequests();

		await harness.activate();

		expect(setup.webhookCalls()).toEqual(['GET /v1/webhooks/{id} 200']);
		expect(harness.staticData).toEqual(before);
		expect(setup.sandbox.control.webhooks().map((subscription) => subscription.id)).toEqual([
			before.subscriptionId,
		]);
		expect(harness.logs.some((line) => line.includes('had lost subscription'))).toBe(true);
	});

	it('still verifies deliveries with the secret the static data lost', async () => {
		const harness = setup.trigger();
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
		const harness = setup.trigger(triggerParameters({ events: ['lead.qualified'] }));
		await harness.activate();
		const old = setup.sandbox.control.webhooks()[0];
		loseStaticData(harness);
		harness.node.parameters.events = ['lead.qualified', 'lead.assigned'];
		setup.sandbox.control.clearRequests();

		await harness.activate();

		expect(setup.webhookCalls()).toEqual(REPLACED_SUBSCRIPTION);
		const subscription = setup.newOnlySubscription(old.id);
		expect(subscription.events).toEqual(['lead.qualified', 'lead.assigned']);
	});

	it('still retries a DELETE that failed at deactivation when the record of it was lost', async () => {
		const harness = setup.trigger();
		await harness.activate();
		const leftover = String(harness.staticData.subscriptionId);
		setup.failWebhookCalls('DELETE', 403);
		await harness.deactivate();
		setup.sandbox.control.clearFaults();
		loseStaticData(harness);
		setup.sandbox.control.clearRequests();

		await harness.activate();

		expect(setup.webhookCalls()).toEqual(REPLACED_SUBSCRIPTION);
		setup.newOnlySubscription(leftover);
		expect(harness.staticData.undeletedSubscriptionIds).toBeUndefined();
	});

	it('leaves other triggers alone: each one finds only its own subscription', async () => {
		const first = setup.trigger();
		const second = setup.trigger();
		await first.activate();
		await second.activate();
		const secondId = second.staticData.subscriptionId;
		loseStaticData(first);

		await first.deactivate();

		expect(setup.sandbox.control.webhooks().map((subscription) => subscription.id)).toEqual([
			secondId,
		]);
		await second.deactivate();
		expect(setup.sandbox.control.webhooks()).toEqual([]);
	});
});

setup.describeNoSecretLeak();
