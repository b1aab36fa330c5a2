// Step 2b of `npm run demo`: a lead left waiting is passed on to another advisor.
// examples/reroute-uncontacted-leads.json: the Polling Trigger's Assigned Lead Not Contacted
// (15 minutes), then Lead → Assign with Pass On, the lead told, the hand-off logged in the Data
// Table "Lead hand-offs". It is active while step 2 assigns leads, as it would be in n8n. The
// sandbox's clock moves 16 minutes on at once instead of the demo waiting for them.

import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, useMemoryDeduplication } from '../../harness/engine';
import {
	createPollHarness,
	POLL_TRIGGER_NODE_TYPE,
	type PollHarness,
} from '../../harness/engine/poll';
import {
	moveIntoOpenHours,
	nextClosingAt,
	rerouteExampleHours,
	wallTimeOf,
} from '../../harness/support/showroomHours';
import { nextOpeningAt } from '../../nodes/shared/openingHours';
import { LeadConversationsPollTrigger } from '../../nodes/LeadConversationsPollTrigger/LeadConversationsPollTrigger.node';
import type { AssignOutcome } from './assignStep';
import { checkRun, loadExample, type DemoService, type Say } from './common';
import { HAND_OFFS_TABLE } from './dataTables';

export const REROUTE_EXAMPLE = 'reroute-uncontacted-leads.json';
const TRIGGER = 'Lead waited 15 minutes';
const MINUTE = 60_000;

/** Activation: the first poll notes the leads already assigned (they are not announced). */
export async function activateReroute({ credentials }: DemoService): Promise<PollHarness> {
	const workflow = loadExample(REROUTE_EXAMPLE);
	const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER)!;
	const trigger = createPollHarness(triggerNode.parameters ?? {}, credentials, {
		nodeName: TRIGGER,
	});
	const first = await trigger.poll();
	if (first.error) throw first.error;
	return trigger;
}

export async function passOnLeadsLeftWaiting(
	service: DemoService,
	say: Say,
	trigger: PollHarness,
	{ assigned }: AssignOutcome,
): Promise<void> {
	const { sandbox } = service;
	say(`2b. A lead left waiting is passed on (examples/${REROUTE_EXAMPLE})`);
	say('   Active since before step 2: every minute it looks for assigned leads');
	say('   that no advisor wrote to within 15 minutes of opening hours.');
	if (assigned.length < 2) throw new Error('Step 2 assigned fewer than two leads');
	const [contacted, waiting] = assigned;

	sandbox.control.advanceClock(5 * MINUTE);
	const conversation = sandbox.control
		.state()
		.conversations.find((c) => c.lead_id === contacted.leadId && c.status === 'open');
	if (!conversation) throw new Error(`${contacted.name} has no open conversation`);
	sandbox.control.addMessage(conversation.id, {
		sent_by: 'human',
		content: `Hi ${contacted.name.split(' ')[0]}, this is your advisor. When can I call you?`,
	});
	say(`   5 minutes later ${contacted.advisor} writes to ${contacted.name}.`);
	say(`   Nobody writes to ${waiting.name} (${waiting.advisor}).`);
	say('   (The "An advisor will contact you shortly" notice does not count as contact.)');
	// The example counts its wait in opening hours: on to the next opening if the demo runs late.
	if (moveIntoOpenHours(sandbox.control) > 0)
		say('   (The showroom is closed now: the demo moves on to its opening.)');
	sandbox.control.advanceClock(11 * MINUTE);
	say("   … 16 minutes pass: the sandbox's clock moves on at once …");

	const poll = await trigger.poll();
	if (poll.error) throw poll.error;
	const items = poll.items ?? [];
	say(`   Next poll: ${items.length} ${items.length === 1 ? 'lead' : 'leads'} waited too long.`);
	await runRecipe(service, say, items);
	if (!items.some((item) => item.id === contacted.leadId)) {
		say(`   ${contacted.name}: ${contacted.advisor} wrote, so nothing to do.`);
	}
	await waitsUntilMorning(service, say, trigger, waiting.advisor);
}

/** The recipe's run on a poll's items, told lead by lead. */
async function runRecipe(service: DemoService, say: Say, items: IDataObject[]): Promise<void> {
	const { credentials, dataTables } = service;
	if (items.length === 0) return;
	// n8n keeps what Remove Duplicates has seen in its database; the engine, in memory.
	await useMemoryDeduplication();
	const rowsBefore = dataTables.rowsOf(HAND_OFFS_TABLE).length;
	const result = await runWorkflow(
		// Its pinned sample event is for the editor's test runs; here the poll's items start it.
		{ ...loadExample(REROUTE_EXAMPLE), pinData: {} },
		credentials,
		{
			startNode: TRIGGER,
			inputItems: items,
			mode: 'trigger',
			dataTables,
			nodeTypes: { [POLL_TRIGGER_NODE_TYPE]: new LeadConversationsPollTrigger() },
		},
	);
	checkRun(result, 'A lead left waiting is passed on');
	for (const item of result.output('Pass on to another advisor')) {
		const { advisor, previousAdvisor } = item.json.assignment as IDataObject;
		const lead = items.find((candidate) => candidate.id === item.json.id) ?? item.json;
		say(
			`   ${String(lead.name)} waited ${String(lead.open_minutes)} open minutes for ${String(previousAdvisor)}`,
		);
		say(`     → passed on to ${String(advisor)}, never back to ${String(previousAdvisor)};`);
	}
	const [told] = result.output('Tell the lead');
	if (told) say(`     told: "${String(told.json.content)}"`);
	for (const row of dataTables.rowsOf(HAND_OFFS_TABLE).slice(rowsBefore)) {
		say(
			`     logged in "${HAND_OFFS_TABLE}": ${String(row.outcome)}, missed by ${String(row.missed_by)}.`,
		);
	}
}

/** A lead assigned after closing: no wait runs at night; it is announced the next morning. */
async function waitsUntilMorning(
	service: DemoService,
	say: Say,
	trigger: PollHarness,
	advisor: string,
): Promise<void> {
	const { control } = service.sandbox;
	const hours = rerouteExampleHours();
	const now = () => Date.parse(control.clock().now);
	const closing = nextClosingAt(hours, now());
	control.advanceClock(closing + 110 * MINUTE - now());
	const lead = control.createChannelLead({
		name: 'Nora Vidal',
		vehicle_interest: 'SUV, hybrid',
		status: 'assigned',
		assigned_to: advisor,
	});
	say(
		`   ${lead.name} writes in at ${wallTimeOf(hours, now())}, after closing, and is assigned to ${advisor}.`,
	);
	const noted = await trigger.poll();
	control.advanceClock(15 * MINUTE);
	const night = await trigger.poll();
	if (noted.error ?? night.error) throw noted.error ?? night.error;
	say(`   At ${wallTimeOf(hours, now())} nobody has written, but the showroom is closed:`);
	say(`   the wait counts only in opening hours, so nothing is passed on at night.`);
	if ((night.items ?? []).length > 0) throw new Error('A lead was passed on while closed');
	control.advanceClock(nextOpeningAt(hours, now())! + 16 * MINUTE - now());
	const morning = await trigger.poll();
	if (morning.error) throw morning.error;
	const [item] = morning.items ?? [];
	if (!item) throw new Error(`${lead.name} was not announced in the morning`);
	say(
		`   ${wallTimeOf(hours, now())}: its 15 open minutes ended at ${wallTimeOf(hours, Date.parse(String(item.wait_ended_at)))}; only now it is passed on.`,
	);
	await runRecipe(service, say, morning.items ?? []);
}
