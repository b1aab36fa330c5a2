import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	createPollHarness,
	type PollHarness,
	type PollHarnessOptions,
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
