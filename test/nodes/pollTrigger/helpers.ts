import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	createPollHarness,
	keepingOfEngine,
	type PollHarness,
	type PollHarnessOptions,
	type StaticDataKeeping,
} from '../../../harness/engine/poll';
import type { RunningSandbox } from '../../../sandbox/contract';

export const NEW_LEAD: INodeParameters = { event: 'newLead' };
export const QUALIFIED: INodeParameters = { event: 'leadStatus', statuses: ['qualified'] };
export const TRANSFERRED: INodeParameters = { event: 'conversationTransferred' };

export function pollTrigger(
	sandbox: RunningSandbox,
	parameters: INodeParameters,
	options: PollHarnessOptions & { apiKey?: string } = {},
): PollHarness {
	return createPollHarness(
		parameters,
		{ apiKey: options.apiKey ?? sandbox.keys.full, baseUrl: sandbox.baseUrl },
		options,
	);
}

export const idsOf = (items: IDataObject[] | null) => (items ?? []).map((item) => item.id);

/** One poll that must succeed and end within its time budget: the IDs it announced. */
export async function pollIdsWithinBudget(trigger: PollHarness, budgetMs: number) {
	const startedAt = Date.now();
	const { items, error } = await trigger.poll();
	expect(error).toBeUndefined();
	expect(Date.now() - startedAt).toBeLessThan(budgetMs);
	return idsOf(items);
}

/** Requests the service received while `run` ran. */
export async function requestsDuring(
	sandbox: RunningSandbox,
	run: () => Promise<unknown>,
): Promise<number> {
	const before = sandbox.control.requests().length;
	await run();
	return sandbox.control.requests().length - before;
}

/** Changes a lead's status through the interface, as an advisor in the dashboard would. */
export async function setLeadStatus(sandbox: RunningSandbox, id: string, status: string) {
	const response = await fetch(`${sandbox.baseUrl}/leads/${id}`, {
		method: 'PATCH',
		headers: { 'X-API-Key': sandbox.keys.full, 'Content-Type': 'application/json' },
		body: JSON.stringify({ status }),
	});
	if (!response.ok) throw new Error(`PATCH /leads/${id}: ${response.status}`);
}

/** How this engine can keep a poll's static data: n8n 2.41 staged (durable poll cursors) or the legacy way (its default, and n8n 1.x). */
const KEEPINGS: StaticDataKeeping[] =
	keepingOfEngine() === 'staged' ? ['staged', 'legacy'] : ['legacy'];

export type PollTriggerOf = (
	parameters: INodeParameters,
	options?: PollHarnessOptions & { apiKey?: string },
) => PollHarness;

/**
 * Defines a file's tests once per way of keeping static data (every rule must hold under each),
 * with a trigger factory of the sandbox in `context` that keeps it that way.
 */
export function describeEachKeeping(
	context: { sandbox: RunningSandbox },
	define: (pollTrigger: PollTriggerOf, keeping: StaticDataKeeping) => void,
): void {
	describe.each(KEEPINGS)('static data kept %s', (keeping) => {
		define(
			(parameters, options = {}) =>
				pollTrigger(context.sandbox, parameters, { keeping, ...options }),
			keeping,
		);
	});
}
