import type { IDataObject } from 'n8n-workflow';

import {
	allLogs,
	createTriggerHarness,
	startWebhookReceiver,
	type RunningSandbox,
	type TriggerHarness,
	type WebhookReceiver,
} from '../../../harness/engine';
import { credentialsOf, useSandbox } from '../../support/useSandbox';
import { minutesAgo, storedSecret, triggerParameters } from './fixtures';

/** Event times inside the replay window while a file runs. */
export const T0 = minutesAgo(10);
export const T0_PLUS_5 = minutesAgo(5);

export interface DeliverySetup {
	sandbox: RunningSandbox;
	receiver: WebhookReceiver;
	/** An active trigger whose webhook URL is the local HTTPS receiver the sandbox delivers to. */
	activeTrigger(parameters?: ReturnType<typeof triggerParameters>): Promise<TriggerHarness>;
	deliver(
		harness: TriggerHarness,
		body: string | Buffer,
		headers: Record<string, string | string[]>,
	): ReturnType<TriggerHarness['deliver']>;
	subscriptionId(harness: TriggerHarness): string;
	settled(): Promise<void>;
	/** Registers, where it is called (last in a file), the check that no secret leaked. */
	describeNoSecretLeak(): void;
}

/**
 * A sandbox delivering over HTTPS to a receiver that hands each request to the trigger, started
 * once per file; every secret handed out and every output item is kept for
 * `describeNoSecretLeak`.
 */
export function useDeliverySetup(): DeliverySetup {
	const secretsSeen = new Set<string>();
	const outputsSeen: IDataObject[] = [];
	const setup = useSandbox({ retryScale: 0.0002 }) as DeliverySetup;

	beforeAll(async () => {
		setup.receiver = await startWebhookReceiver();
	});

	afterAll(async () => {
		await setup.receiver.close();
	});

	setup.activeTrigger = async (parameters = triggerParameters()) => {
		const harness = createTriggerHarness(parameters, credentialsOf(setup.sandbox), {
			webhookBaseUrl: setup.receiver.url,
		});
		// Each test starts from a receiver that knows only its own trigger and requests.
		setup.receiver.reset();
		setup.receiver.attach(harness);
		await harness.activate();
		secretsSeen.add(storedSecret(harness));
		return harness;
	};
	setup.deliver = async (harness, body, headers) => {
		const result = await harness.deliver({ body, headers });
		for (const run of result.runs) for (const item of run) outputsSeen.push(item.json);
		return result;
	};
	setup.subscriptionId = (harness) => String(harness.staticData.subscriptionId);
	setup.settled = async () => {
		await setup.sandbox.control.whenDeliveriesSettled();
		for (const run of setup.receiver.runs) for (const item of run) outputsSeen.push(item.json);
	};

	setup.describeNoSecretLeak = () => {
		describe('the signing secret', () => {
			it('never appears in any output item or log line of this file', () => {
				expect(secretsSeen.size).toBeGreaterThan(2);
				expect(outputsSeen.length).toBeGreaterThan(2);
				const outputs = JSON.stringify(outputsSeen);
				const logs = allLogs().join('\n');
				for (const secret of secretsSeen) {
					expect(outputs).not.toContain(secret);
					expect(logs).not.toContain(secret);
				}
			});
		});
	};
	return setup;
}
