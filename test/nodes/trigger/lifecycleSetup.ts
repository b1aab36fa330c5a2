import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import {
	allLogs,
	createTriggerHarness,
	type RunningSandbox,
	type TriggerHarness,
} from '../../../harness/engine';
import { credentialsOf, useSandbox } from '../../support/useSandbox';
import { triggerParameters } from './fixtures';

export const INSTANCE = 'https://n8n.dealer-group.example/';

export interface LifecycleSetup {
	/** The sandbox, once `beforeAll` ran. */
	sandbox: RunningSandbox;
	/** A trigger of the sandbox on the instance URL `INSTANCE`. */
	trigger(
		parameters?: ReturnType<typeof triggerParameters>,
		options?: Parameters<typeof createTriggerHarness>[2],
	): TriggerHarness;
	/** The calls to /v1/webhooks since the last reset, as `METHOD /path status`. */
	webhookCalls(): string[];
	/** The service answers the next `count` (default 1) `method` calls to /v1/webhooks with `status`. */
	failWebhookCalls(method: 'GET' | 'DELETE', status: number, count?: number): void;
	/** The service's only subscription, which must be another than the one it replaced. */
	newOnlySubscription(
		replacedId: string,
	): ReturnType<RunningSandbox['control']['webhooks']>[number];
	/** The error a promise rejects with, kept for the leak check. */
	rejection(promise: Promise<unknown>): Promise<Error>;
	/** Adds a secret handed out outside the sandbox to those that must never leak. */
	noteSecret(secret: string): void;
	/** Registers, where it is called (last in a file), the check that no secret leaked. */
	describeNoSecretLeak(): void;
}

/**
 * Starts the sandbox for a file of lifecycle tests and keeps every secret it hands out and every
 * error raised, for `describeNoSecretLeak`.
 */
export function useLifecycleSetup(): LifecycleSetup {
	/** Signing secrets still subscribed at the end of each test, and every activation error raised. */
	const secretsSeen = new Set<string>();
	const errorsSeen: Error[] = [];
	const setup = useSandbox({ retryScale: 0.0002 }) as LifecycleSetup;
	afterEach(() => {
		for (const subscription of setup.sandbox.control.state().webhooks) {
			secretsSeen.add(subscription.secret);
		}
	});

	setup.trigger = (parameters = triggerParameters(), options = {}) =>
		createTriggerHarness(parameters, credentialsOf(setup.sandbox), {
			webhookBaseUrl: INSTANCE,
			...options,
		});
	setup.webhookCalls = () =>
		setup.sandbox.control
			.requests()
			.filter((request) => request.path.startsWith('/v1/webhooks'))
			.map(
				(request) =>
					`${request.method} ${request.path.replace(/wh_[^/]+/, '{id}')} ${request.status}`,
			);
	setup.failWebhookCalls = (method, status, count) =>
		setup.sandbox.control.injectFaults({
			kind: 'status',
			status,
			method,
			pathPrefix: '/v1/webhooks',
			count,
		});
	setup.newOnlySubscription = (replacedId) => {
		const subscriptions = setup.sandbox.control.webhooks();
		expect(subscriptions).toHaveLength(1);
		expect(subscriptions[0].id).not.toBe(replacedId);
		return subscriptions[0];
	};
	setup.rejection = async (promise) => {
		try {
			await promise;
		} catch (error) {
			errorsSeen.push(error as Error);
			return error as Error;
		}
		throw new Error('expected a rejection');
	};
	setup.noteSecret = (secret) => secretsSeen.add(secret);
	setup.describeNoSecretLeak = () => {
		describe('the signing secret', () => {
			it('never appears in an error message, error description or log line', () => {
				expect(secretsSeen.size).toBeGreaterThan(0);
				const errors = JSON.stringify(
					errorsSeen.map((error) => [error.message, (error as NodeOperationError).description]),
				);
				const logs = allLogs().join('\n');
				for (const secret of secretsSeen) {
					expect(errors).not.toContain(secret);
					expect(logs).not.toContain(secret);
				}
			});
		});
	};
	return setup;
}

/** The calls of a trigger that deletes its old subscription and subscribes anew. */
export const REPLACED_SUBSCRIPTION = [
	'DELETE /v1/webhooks/{id} 204',
	'GET /v1/webhooks 405',
	'POST /v1/webhooks 201',
];

/** The warnings n8n's loggers got from the trigger. */
export const warningsOf = (harness: TriggerHarness) =>
	harness.logs.filter((line) => line.startsWith('warn'));

/** The workflow's static data as n8n saves it between activations (serialized). */
export function asSaved(harness: TriggerHarness) {
	return JSON.parse(JSON.stringify(harness.workflowStaticData)) as IDataObject;
}

/** What n8n shows a trigger whose workflow lost its static data: an empty record. */
export function loseStaticData(harness: TriggerHarness): void {
	for (const key of Object.keys(harness.staticData)) delete harness.staticData[key];
}
