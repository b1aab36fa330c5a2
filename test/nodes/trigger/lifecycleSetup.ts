import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import {
	allLogs,
	createTriggerHarness,
	startTestSandbox,
	type RunningSandbox,
	type TriggerHarness,
} from '../../../harness/engine';
import { triggerParameters } from './fixtures';

export const INSTANCE = 'https://n8n.dealer-group.example/';

const state = {} as { sandbox: RunningSandbox; credentials: { apiKey: string; baseUrl: string } };
/** Signing secrets still subscribed at the end of each test, and every activation error raised. */
const secretsSeen = new Set<string>();
const errorsSeen: Error[] = [];

/**
 * Starts the sandbox for a file of lifecycle tests and keeps every secret it hands out and every
 * error raised, for `describeNoSecretLeak`. Returns the running sandbox once `beforeAll` ran.
 */
export function useLifecycleSetup(): typeof state {
	beforeAll(async () => {
		state.sandbox = await startTestSandbox({ retryScale: 0.002 });
		state.credentials = { apiKey: state.sandbox.keys.full, baseUrl: state.sandbox.baseUrl };
	});
	afterAll(async () => {
		await state.sandbox.close();
	});
	beforeEach(() => {
		state.sandbox.control.reset();
	});
	afterEach(() => {
		for (const subscription of state.sandbox.control.state().webhooks) {
			secretsSeen.add(subscription.secret);
		}
	});
	return state;
}

/** Adds a secret handed out outside the sandbox to those that must never leak. */
export function noteSecret(secret: string): void {
	secretsSeen.add(secret);
}

/** Registers, where it is called (last in a file), the check that no secret leaked. */
export function describeNoSecretLeak(): void {
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
}

export const webhookCalls = () =>
	state.sandbox.control
		.requests()
		.filter((request) => request.path.startsWith('/v1/webhooks'))
		.map(
			(request) =>
				`${request.method} ${request.path.replace(/wh_[^/]+/, '{id}')} ${request.status}`,
		);

/** The calls of a trigger that deletes its old subscription and subscribes anew. */
export const REPLACED_SUBSCRIPTION = [
	'DELETE /v1/webhooks/{id} 204',
	'GET /v1/webhooks 405',
	'POST /v1/webhooks 201',
];

/** The service answers the next `count` (default 1) `method` calls to /v1/webhooks with `status`. */
export function failWebhookCalls(method: 'GET' | 'DELETE', status: number, count?: number) {
	state.sandbox.control.injectFaults({
		kind: 'status',
		status,
		method,
		pathPrefix: '/v1/webhooks',
		count,
	});
}

/** The service's only subscription, which must be another than the one it replaced. */
export function newOnlySubscription(replacedId: string) {
	const subscriptions = state.sandbox.control.webhooks();
	expect(subscriptions).toHaveLength(1);
	expect(subscriptions[0].id).not.toBe(replacedId);
	return subscriptions[0];
}

/** The warnings n8n's loggers got from the trigger. */
export const warningsOf = (harness: TriggerHarness) =>
	harness.logs.filter((line) => line.startsWith('warn'));

export function trigger(
	parameters = triggerParameters(),
	options: Parameters<typeof createTriggerHarness>[2] = {},
) {
	return createTriggerHarness(parameters, state.credentials, {
		webhookBaseUrl: INSTANCE,
		...options,
	});
}

/** The workflow's static data as n8n saves it between activations (serialized). */
export function asSaved(harness: TriggerHarness) {
	return JSON.parse(JSON.stringify(harness.workflowStaticData)) as IDataObject;
}

export async function rejection(promise: Promise<unknown>): Promise<Error> {
	try {
		await promise;
	} catch (error) {
		errorsSeen.push(error as Error);
		return error as Error;
	}
	throw new Error('expected a rejection');
}

/** What n8n shows a trigger whose workflow lost its static data: an empty record. */
export function loseStaticData(harness: TriggerHarness): void {
	for (const key of Object.keys(harness.staticData)) delete harness.staticData[key];
}
