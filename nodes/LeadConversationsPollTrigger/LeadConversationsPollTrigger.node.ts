import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import type { PollEvent } from './events';
import { LEAD_OUTPUTS, POLL_EVENTS, changedLeadItem, leadOutputItem } from './events';
import { pollChangedLeads } from './changesPoll';
import { pollContacted } from './contactedPoll';
import type { AssignedSettings } from './assignedSettings';
import { readAssignedSettings } from './assignedSettings';
import { waitMsOf } from './notContacted';
import { pollNotContacted } from './notContactedPoll';
import type { WaitClock } from './waitClock';
import { readWaitClock } from './waitClock';
import { pollTriggerProperties } from './description';
import { pollTriggerPanel } from './triggerPanel';
import { optionNameSubtitle } from '../shared/subtitle';
import type { StoredPosition } from './position';
import { POSITION_VERSION, readPosition, writePosition } from './position';
import { pollBudgetMs } from './reading';
import { onePollAtATime } from './onePollAtATime';
import { testEventItems } from './testEvent';
import type { PollSettings } from './watchers';
import { pollNewLeads, pollStatuses, watchOf } from './watchers';

function readSettings(context: IPollFunctions): PollSettings {
	const event = context.getNodeParameter('event', POLL_EVENTS.newLead) as PollEvent;
	const filters = context.getNodeParameter('filters', {}) as IDataObject;
	const options =
		event === POLL_EVENTS.conversationTransferred ||
		event === POLL_EVENTS.assignedNotContacted ||
		event === POLL_EVENTS.assignedContacted
			? {}
			: (context.getNodeParameter('options', {}) as IDataObject);
	const minimumScore = Number(filters.minimumScore ?? 0);
	const listed = (value: unknown) => (Array.isArray(value) ? (value as string[]) : []);
	return {
		event,
		statuses:
			event === POLL_EVENTS.leadStatus ? listed(context.getNodeParameter('statuses', [])) : [],
		conversationChannel:
			event === POLL_EVENTS.conversationTransferred
				? String(context.getNodeParameter('conversationChannel', ''))
				: '',
		conditions: {
			minimumScore: minimumScore > 0 ? minimumScore : undefined,
			intents: listed(filters.intents),
			channels: listed(filters.channels),
		},
		output: options.output === LEAD_OUTPUTS.flat ? LEAD_OUTPUTS.flat : LEAD_OUTPUTS.event,
		includeExisting: options.includeExistingLeads === true,
	};
}

/** Assigned Lead Not Contacted's wait and how it counts; a wrong value fails before any request. */
function readWait(context: IPollFunctions): WaitClock {
	const waitMs = waitMsOf(
		context.getNodeParameter('waitAmount', 15),
		context.getNodeParameter('waitUnit', 'minutes'),
	);
	if (typeof waitMs === 'string') throw new NodeOperationError(context.getNode(), waitMs);
	return readWaitClock(context, waitMs);
}

export class LeadConversationsPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		// n8n's nodes panel drops " Trigger": listed as "Lead Conversations Polling".
		displayName: 'Lead Conversations Polling Trigger',
		name: 'leadConversationsPollTrigger',
		icon: {
			light: 'file:../../icons/leadConversations.svg',
			dark: 'file:../../icons/leadConversations.dark.svg',
		},
		group: ['trigger'],
		// 2: Assigned Lead Not Contacted tells the workflow's notices apart by their text (Workflow
		// Notices), not by a 60 s grace; nodes saved at 1 keep the grace.
		version: [1, 2],
		defaultVersion: 2,
		// The chosen event as the Event dropdown names it: "New Lead", not "newLead".
		subtitle: optionNameSubtitle('event', pollTriggerProperties),
		description:
			'Starts workflows on new and changed leads, status changes, handoffs to a human, and assigned leads contacted or left waiting, checking the lead service on a schedule; needs no public URL',
		defaults: {
			name: 'Lead Conversations Polling Trigger',
		},
		polling: true,
		triggerPanel: pollTriggerPanel,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'leadConversationsApi',
				required: true,
			},
		],
		properties: pollTriggerProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const settings = readSettings(this);
		if (settings.event === POLL_EVENTS.leadStatus && settings.statuses.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Choose at least one status in Statuses');
		}
		const wait = settings.event === POLL_EVENTS.assignedNotContacted ? readWait(this) : undefined;
		const { rule, hours } = readAssignedSettings(this, settings.event);
		const polledAt = new Date().toISOString();

		const budgetMs = pollBudgetMs(this);
		if (this.getMode() === 'manual') {
			const round = { polledAt, wait, rule, hours, budgetMs, deadline: Date.now() + budgetMs };
			return [this.helpers.returnJsonArray(await testEventItems(this, settings, round))];
		}

		return await onePollAtATime(this, budgetMs, async () => {
			return await scheduledPoll(this, settings, { wait, rule, hours, budgetMs, polledAt });
		});
	}
}

/** A scheduled poll: read, announce, and move the stored position once every read is done. */
async function scheduledPoll(
	context: IPollFunctions,
	settings: PollSettings,
	{
		wait,
		rule,
		hours,
		budgetMs,
		polledAt,
	}: AssignedSettings & { budgetMs: number; polledAt: string },
): Promise<INodeExecutionData[][] | null> {
	// By default n8n hands the live static data and saves it when the poll starts an execution;
	// with 2.41's durable poll cursors on, a staged copy stored with that execution (or alone
	// when it starts none) and dropped when the poll throws. Either way it is written only after
	// every read is complete.
	const staticData = context.getWorkflowStaticData('node');
	const stored = readPosition(staticData, watchOf(settings));
	const deadline = Date.now() + budgetMs;
	if (settings.event === POLL_EVENTS.leadChanged) {
		const outcome = await pollChangedLeads(context, {
			stored: stored?.changes,
			includeExisting: settings.includeExisting,
			deadline,
		});
		const position: StoredPosition = {
			version: POSITION_VERSION,
			watch: watchOf(settings),
			changes: outcome.position,
		};
		writePosition(staticData, position);
		const items = outcome.leads.map((lead) =>
			leadOutputItem(lead, settings.output, () => changedLeadItem(lead, polledAt)),
		);
		return items.length > 0 ? [context.helpers.returnJsonArray(items)] : null;
	}
	if (rule !== undefined) {
		const assignedRound = { stored: stored?.notContacted, rule, deadline, budgetMs, polledAt };
		const outcome =
			wait === undefined
				? await pollContacted(context, { ...assignedRound, hours })
				: await pollNotContacted(context, { ...assignedRound, wait });
		writePosition(staticData, {
			version: POSITION_VERSION,
			watch: watchOf(settings),
			notContacted: outcome.position,
		});
		const { items } = outcome;
		return items.length > 0 ? [context.helpers.returnJsonArray(items)] : null;
	}
	const round = { settings, stored, deadline, budgetMs, polledAt };
	const { items, position } =
		settings.event === POLL_EVENTS.newLead
			? await pollNewLeads(context, round)
			: await pollStatuses(context, round);
	writePosition(staticData, position);
	return items.length > 0 ? [context.helpers.returnJsonArray(items)] : null;
}
