// 100 activate/deactivate cycles of one trigger while another stays active beside it. Some
// cycles lose the trigger's static data (where n8n keeps the subscription ID and secret), some
// meet a subscription deleted in the dashboard, some a service that fails the DELETE.
// After every step: which subscriptions exist on the service that no active trigger owns, and
// how many point at the trigger's URL at once.
//
// Time is not what this file measures: the node's waits are jumped over instead of slept
// (test/nodes/clock.ts), which spares the back-off of the DELETEs answered 503 until their
// retries run out (about 16 s per such cycle in real time). Every attempt still goes over real HTTP.

import {
	createTriggerHarness,
	startWebhookReceiver,
	type TriggerHarness,
	type WebhookReceiver,
} from '../../harness/engine';
import { seededRandom } from '../../harness/support/random';
import { useJumpingClock } from '../nodes/clock';
import { credentialsOf, scaled, useTracedSandbox } from './support/common';
import { recordFigure } from './support/figures';
import { SecretTrace } from './support/trace';

const CYCLES = scaled(100, 20);
const KINDS = {
	plain: 'activate, deactivate',
	reactivated: 'activate, activate again (checkExists finds it), deactivate',
	lostWhileActive: 'activate, static data lost, deactivate',
	lostThenReactivated: 'activate, static data lost, activate again, deactivate',
	deletedInDashboard: 'activate, subscription deleted in the dashboard, deactivate',
	deleteFails: 'activate, DELETE answered 503 until retries run out, deactivate',
} as const;
type Kind = keyof typeof KINDS;
/** How many of each kind per 100 cycles; the rest are plain. */
const SHARE: Partial<Record<Kind, number>> = {
	reactivated: 10,
	lostWhileActive: 10,
	lostThenReactivated: 5,
	deletedInDashboard: 5,
	deleteFails: 5,
};

let receiver: WebhookReceiver;
const trace = new SecretTrace('subscriptionCycles.reliability.ts');

const ctx = useTracedSandbox(trace, { retryScale: 0.0005 });
useJumpingClock();

beforeAll(async () => {
	receiver = await startWebhookReceiver();
});

afterAll(async () => {
	await receiver.close();
});

function plan(): Kind[] {
	const kinds: Kind[] = [];
	for (const [kind, share] of Object.entries(SHARE) as Array<[Kind, number]>) {
		for (let i = 0; i < Math.max(1, Math.round((share * CYCLES) / 100)); i++) kinds.push(kind);
	}
	while (kinds.length < CYCLES) kinds.push('plain');
	const random = seededRandom(100);
	for (let i = kinds.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[kinds[i], kinds[j]] = [kinds[j], kinds[i]];
	}
	// The last cycle is plain, so a DELETE that failed earlier had an activation to clean it up.
	kinds[kinds.length - 1] = 'plain';
	return kinds;
}

function loseStaticData(harness: TriggerHarness): void {
	for (const key of Object.keys(harness.staticData)) delete harness.staticData[key];
}

it(`${CYCLES} activate/deactivate cycles leave no subscription that no active trigger owns, and never two for one trigger`, async () => {
	const parameters = { events: ['lead.qualified'], subscription: 'automatic', options: {} };
	const trigger = createTriggerHarness(parameters, credentialsOf(ctx.sandbox), {
		webhookBaseUrl: receiver.url,
		workflowName: 'Toggled 100 times',
	});
	const bystander = createTriggerHarness(parameters, credentialsOf(ctx.sandbox), {
		webhookBaseUrl: receiver.url,
		workflowName: 'Always active',
	});
	receiver.attach(trigger);
	await bystander.activate();
	const bystanderId = String(bystander.staticData.subscriptionId);

	const subscriptionsAt = (url: string) =>
		ctx.sandbox.control.webhooks().filter((webhook) => webhook.url === url);
	let mostAtOnce = 0;
	let bystanderTouched = false;
	const observe = () => {
		const current = subscriptionsAt(trigger.webhookUrl);
		mostAtOnce = Math.max(mostAtOnce, current.length);
		for (const webhook of ctx.sandbox.control.webhooks())
			trace.addSecret(webhook.secret, 'a signing secret');
		if (!ctx.sandbox.control.webhooks().some((webhook) => webhook.id === bystanderId))
			bystanderTouched = true;
	};
	const activate = async () => {
		await trigger.activate();
		observe();
	};
	/**
	 * After a deactivation nothing at the trigger's URL has an active owner: every subscription
	 * there is left behind. Each is charged to the cycle that left it, and noted when a later
	 * activation removed it again.
	 */
	const leftBy = new Map<string, Kind>();
	const leftPerKind = Object.fromEntries(
		(Object.keys(KINDS) as Kind[]).map((kind) => [kind, { cycles: 0, left: 0, removedLater: 0 }]),
	) as Record<Kind, { cycles: number; left: number; removedLater: number }>;
	const chargeLeftovers = (kind: Kind) => {
		const now = new Set(subscriptionsAt(trigger.webhookUrl).map((webhook) => webhook.id));
		for (const [id, leftIn] of [...leftBy]) {
			if (!now.has(id)) {
				leftPerKind[leftIn].removedLater++;
				leftBy.delete(id);
			}
		}
		for (const id of now) {
			if (!leftBy.has(id)) {
				leftBy.set(id, kind);
				leftPerKind[kind].left++;
			}
		}
	};
	const errors: string[] = [];

	const kinds = plan();
	for (const [cycle, kind] of kinds.entries()) {
		try {
			await activate();
			if (kind === 'reactivated') await activate();
			if (kind === 'lostWhileActive' || kind === 'lostThenReactivated') loseStaticData(trigger);
			if (kind === 'lostThenReactivated') await activate();
			if (kind === 'deletedInDashboard') {
				const id = String(trigger.staticData.subscriptionId);
				await fetch(`${ctx.sandbox.baseUrl}/webhooks/${id}`, {
					method: 'DELETE',
					headers: { 'X-API-Key': ctx.sandbox.keys.full },
				});
			}
			if (kind === 'deleteFails') {
				ctx.sandbox.control.injectFaults({
					kind: 'status',
					status: 503,
					count: 10,
					method: 'DELETE',
				});
			}
			await trigger.deactivate();
			ctx.sandbox.control.clearFaults();
			observe();
			leftPerKind[kind].cycles++;
			chargeLeftovers(kind);
		} catch (error) {
			trace.addError(`cycle ${cycle}`, error);
			errors.push(`cycle ${cycle} (${kind}): ${(error as Error).message}`);
			ctx.sandbox.control.clearFaults();
		}
	}
	trace.addText('trigger logs', trigger.logs.join('\n'));

	const leftOver = subscriptionsAt(trigger.webhookUrl);

	// What the leftovers do: reactivate, let the service deliver one event to every
	// subscription at the trigger's URL, and see who is answered what.
	await activate();
	const atOnceAfterReactivation = subscriptionsAt(trigger.webhookUrl).length;
	receiver.received.length = 0;
	const lead = ctx.sandbox.control.createChannelLead({ name: 'Cycle check lead' });
	ctx.sandbox.control.qualifyLead(lead.id, 95);
	await ctx.sandbox.control.whenDeliveriesSettled();
	const firstAttempts = ctx.sandbox.control
		.deliveries()
		.filter((delivery) => delivery.attempt === 1 && delivery.url === trigger.webhookUrl);
	const refusedByTrigger = firstAttempts.filter((delivery) => delivery.status === 401).length;
	const runs = receiver.received.reduce(
		(sum, request) => sum + (request.result?.runs.length ?? 0),
		0,
	);
	for (const request of receiver.received) {
		if (request.result) trace.addDelivery('delivery to the reactivated trigger', request.result);
	}
	await trigger.deactivate();
	await bystander.deactivate();
	const finalLeft = ctx.sandbox.control.webhooks().length;

	const summary = (Object.keys(KINDS) as Kind[])
		.filter((kind) => leftPerKind[kind].cycles > 0)
		.map((kind) => {
			const { cycles, left, removedLater } = leftPerKind[kind];
			return `${kind} ×${cycles}: ${left} left behind${removedLater ? ` (${removedLater} removed by the next activation)` : ''}`;
		});
	const pass =
		CYCLES === 100 &&
		errors.length === 0 &&
		finalLeft === 0 &&
		leftOver.length === 0 &&
		mostAtOnce <= 1 &&
		!bystanderTouched;
	recordFigure({
		id: 'subscriptionCycles',
		pass,
		measured:
			`${kinds.length} cycles; after all of them ${leftOver.length} subscriptions at the trigger's URL that no active trigger owns ` +
			`(${finalLeft} on the service after the last deactivation of both triggers); at most ${mostAtOnce} at the trigger's URL at once ` +
			`(${atOnceAfterReactivation} right after the final reactivation); ` +
			`the always-active trigger's subscription ${bystanderTouched ? 'was touched' : 'was never touched'}; ` +
			`${summary.join('; ')}; one event after reactivating went to ${firstAttempts.length} subscriptions at the URL: ` +
			`${firstAttempts.length - refusedByTrigger} accepted, ${refusedByTrigger} refused 401 (old secret), ${runs} run(s)` +
			(errors.length ? `; errors: ${errors.slice(0, 3).join('; ')}` : ''),
	});

	expect(errors).toEqual([]);
	expect(bystanderTouched).toBe(false);
	// The failing DELETEs really ran out of retries: each such cycle left its subscription behind,
	// and the next activation removed it.
	const failedDeletes = leftPerKind.deleteFails;
	expect(failedDeletes.cycles).toBeGreaterThan(0);
	expect(failedDeletes).toEqual({
		cycles: failedDeletes.cycles,
		left: failedDeletes.cycles,
		removedLater: failedDeletes.cycles,
	});
	expect(runs).toBe(1);
	expect({
		leftAfterAllCycles: leftOver.length,
		leftAfterDeactivatingEverything: finalLeft,
		mostAtTheTriggersUrlAtOnce: mostAtOnce,
	}).toEqual({
		leftAfterAllCycles: 0,
		leftAfterDeactivatingEverything: 0,
		mostAtTheTriggersUrlAtOnce: 1,
	});
});

it('shows neither the API keys nor the signing secrets in any error, answer, run item or log line of this file', () => {
	expect(trace.scan()).toEqual([]);
});
