// What the Assigned Lead Not Contacted tests do to the sandbox: assign, write, read the waits.

import type { INodeParameters } from 'n8n-workflow';

import type { PollHarness } from '../../../harness/engine/poll';
import type { RunningSandbox, StoredConversation, StoredLead } from '../../../sandbox/contract';

export const NOT_CONTACTED: INodeParameters = {
	event: 'assignedNotContacted',
	waitAmount: 15,
	waitUnit: 'minutes',
};
export const ADVISOR_A = 'user_ana';
export const ADVISOR_B = 'user_bruno';
export const MINUTE = 60_000;

/** The `skip`+1-th lead of org_alpha not yet assigned with an open conversation (not a call). */
export function leadWithOpenConversation(
	sandbox: RunningSandbox,
	skip = 0,
): { lead: StoredLead; conversation: StoredConversation } {
	const state = sandbox.control.state();
	const conversations = state.conversations.filter(
		(c) => c.status === 'open' && c.channel !== 'phone' && c.organization_id === 'org_alpha',
	);
	const found = conversations
		.map((conversation) => ({
			conversation,
			lead: state.leads.find((lead) => lead.id === conversation.lead_id)!,
		}))
		.filter(({ lead }) => lead.status !== 'assigned' && lead.assigned_to === null)
		// One conversation per lead: `skip` counts leads.
		.filter(({ lead }, i, all) => all.findIndex((other) => other.lead.id === lead.id) === i);
	if (found.length <= skip) throw new Error('The seed has no such lead');
	return found[skip];
}

async function send(sandbox: RunningSandbox, method: string, path: string, body: object) {
	const response = await fetch(`${sandbox.baseUrl}${path}`, {
		method,
		headers: { 'X-API-Key': sandbox.keys.full, 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
	return (await response.json()) as Record<string, unknown>;
}

/** PATCH /leads/{id}, as Lead → Assign or an advisor in the dashboard would. */
export async function assign(
	sandbox: RunningSandbox,
	id: string,
	advisor: string,
	status = 'assigned',
): Promise<{ updated_at: string }> {
	const lead = await send(sandbox, 'PATCH', `/leads/${id}`, { status, assigned_to: advisor });
	return { updated_at: String(lead.updated_at) };
}

/** POST /conversations/{id}/messages: the service records it as sent_by human. */
export async function postAsAdvisor(sandbox: RunningSandbox, conversationId: string, text: string) {
	await send(sandbox, 'POST', `/conversations/${conversationId}/messages`, { content: text });
}

/** The stored waits: lead ID → [advisor, start ms, state, ...earlier missers]. */
export function waitsOf(
	trigger: PollHarness,
): Record<string, [string, number, number, ...string[]]> {
	const position = trigger.position as { notContacted?: { waits: Record<string, never> } };
	return position.notContacted?.waits ?? {};
}
