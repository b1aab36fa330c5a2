// The scripted model of the "ask about your leads" assistant: it plays what a capable model does
// with the question "which qualified marketplace leads have no advisor yet? give the first one to
// <advisor> and tell them", including a first guess at the status that the tool refuses.

import type { ScriptedReply, ToolResult, TurnView } from './scriptedChatModel';

export const ASSISTANT_QUESTION =
	'Which qualified leads from the marketplace have no advisor yet? Give the first one to user_e2e_advisor and tell them in their open conversation that the advisor will call today.';
export const ADVISOR = 'user_e2e_advisor';
/** The status the script tries first: not a lead status, so the tool must refuse it. */
export const WRONG_STATUS = 'hot';
export const MESSAGE_TO_LEAD =
	'Hello! Your advisor will call you today to talk about your next vehicle.';
/** Arguments a model may add on its own; the workflow leaves neither to it. */
export const UNASKED_ARGUMENTS = { notes: 'Promised a 20% discount', status: 'lost' };

function toolName(view: TurnView, words: string): string {
	const tool = view.tools.find((candidate) => candidate.name.toLowerCase().includes(words));
	if (!tool) throw new Error(`no tool named like "${words}" was offered`);
	return tool.name;
}

/** The error text of a failed tool call, as the agent hands it back: [{ "error": "..." }]. */
export function errorOf(result: ToolResult | undefined): string | undefined {
	const first = Array.isArray(result?.json) ? (result!.json as unknown[])[0] : undefined;
	const error = (first as { error?: unknown } | undefined)?.error;
	return typeof error === 'string' ? error : undefined;
}

function records(result: ToolResult | undefined): Array<Record<string, unknown>> {
	return Array.isArray(result?.json) && !errorOf(result)
		? (result!.json as Array<Record<string, unknown>>)
		: [];
}

export function leadAssistantScript(view: TurnView): ScriptedReply {
	const findLeads = toolName(view, 'find_leads');
	const findConversations = toolName(view, 'conversations');
	const assign = toolName(view, 'assign');
	const send = toolName(view, 'send');
	const resultsOf = (name: string) => view.allResults.filter((result) => result.name === name);

	const leadLists = resultsOf(findLeads);
	const lastList = leadLists.at(-1);
	if (!lastList) {
		return {
			toolCalls: [{ name: findLeads, arguments: { status: WRONG_STATUS, channel: 'marketplace' } }],
		};
	}
	const refusal = errorOf(lastList);
	if (refusal) {
		if (leadLists.length > 2) return { text: `I could not list the leads: ${refusal}` };
		// Read the allowed values from the refusal and take the one the question asks for.
		const allowed = /Status must be one of ([a-z_, ]+) \(got/.exec(refusal)?.[1].split(', ') ?? [];
		const status = allowed.find((value) => view.userText.toLowerCase().includes(value));
		if (!status)
			return { text: `The tool refused the status and I cannot tell which to use: ${refusal}` };
		return { toolCalls: [{ name: findLeads, arguments: { status, channel: 'marketplace' } }] };
	}

	const unassigned = records(lastList).filter((lead) => lead.assigned_to === null);
	if (unassigned.length === 0) return { text: 'Every qualified marketplace lead has an advisor.' };
	const conversationLists = resultsOf(findConversations);
	if (conversationLists.length === 0) {
		return {
			toolCalls: unassigned.map((lead) => ({
				name: findConversations,
				arguments: { lead_id: lead.id },
			})),
		};
	}

	const listing = unassigned.map((lead) => `${lead.name} (${lead.id})`).join(', ');
	const chosen = unassigned
		.map((lead) => ({
			lead,
			conversation: conversationLists
				.filter((result) => result.arguments.lead_id === lead.id)
				.flatMap(records)[0],
		}))
		.find((candidate) => candidate.conversation);
	if (!chosen) return { text: `Without an advisor: ${listing}. None has an open conversation.` };

	const done = resultsOf(assign).length > 0 || resultsOf(send).length > 0;
	if (!done) {
		return {
			toolCalls: [
				{
					name: assign,
					arguments: { lead_id: chosen.lead.id, advisor_id: ADVISOR, ...UNASKED_ARGUMENTS },
				},
				{
					name: send,
					arguments: { conversation_id: chosen.conversation!.id, message: MESSAGE_TO_LEAD },
				},
			],
		};
	}
	const failed = [...resultsOf(assign), ...resultsOf(send)].map(errorOf).filter(Boolean);
	if (failed.length > 0)
		return { text: `Without an advisor: ${listing}. It went wrong: ${failed.join('; ')}` };
	return {
		text: `Without an advisor: ${listing}. ${chosen.lead.id} is now with ${ADVISOR}, and I wrote to them in ${chosen.conversation!.id}.`,
	};
}
