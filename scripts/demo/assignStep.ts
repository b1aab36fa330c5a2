// Step 2 of `npm run demo`: assign qualified leads. examples/qualified-lead-round-robin.json
// activated as n8n activates it: the trigger subscribes at the service, which then delivers
// signed lead.qualified events to n8n's HTTPS webhook endpoint on loopback; each delivery
// starts a run.

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	createTriggerHarness,
	runWorkflow,
	startWebhookReceiver,
	type RunResult,
} from '../../harness/engine';
import {
	checkRun,
	DEMO_ADVISORS,
	loadExample,
	ownLeads,
	type DemoService,
	type Say,
} from './common';
import { ROSTER_TABLE } from './dataTables';

export const ASSIGN_EXAMPLE = 'qualified-lead-round-robin.json';

/** Scores the service's AI gives, one lead after the other; the trigger starts at 70. */
const SCORES = [88, 74, 91, 62, 79];

export interface Assignment {
	leadId: string;
	name: string;
	advisor: string;
}

export interface AssignOutcome {
	/** Leads the workflow gave an advisor (not those it left with the one they had). */
	assigned: Assignment[];
}

export async function assignQualifiedLeads(
	{ sandbox, credentials, dataTables }: DemoService,
	say: Say,
): Promise<AssignOutcome> {
	// Its pinned sample event is for the editor's test runs; here the service's deliveries start it.
	const workflow = { ...loadExample(ASSIGN_EXAMPLE), pinData: {} };
	const triggerNode = workflow.nodes.find((node) =>
		node.type.endsWith('.leadConversationsTrigger'),
	)!;
	say(`2. Assign qualified leads (examples/${ASSIGN_EXAMPLE})`);
	say(`   Roster: ${DEMO_ADVISORS.join(', ')}, taking turns,`);
	say(`   in the Data Table "${ROSTER_TABLE}" (n8n's Data Table node reads it).`);

	const assigned: Assignment[] = [];
	let pendingRun: Promise<RunResult> | undefined;
	// n8n's webhook endpoint on a local HTTPS address: the service delivers only to https:// URLs.
	const receiver = await startWebhookReceiver({
		onDelivery: ({ result }) => {
			const items = result?.runs[0];
			if (!items?.length) return;
			// n8n answers the service first, then runs the workflow from the trigger's items.
			pendingRun = runWorkflow(workflow, credentials, {
				startNode: triggerNode.name,
				inputItems: items.map((item: INodeExecutionData) => item.json),
				mode: 'webhook',
				dataTables,
			});
		},
	});

	try {
		const trigger = createTriggerHarness(triggerNode.parameters ?? {}, credentials, {
			webhookBaseUrl: `https://localhost:${receiver.port}/`,
			webhookId: triggerNode.webhookId,
			nodeName: triggerNode.name,
			workflowName: workflow.name,
		});
		receiver.attach(trigger);
		await trigger.activate();
		const [subscription] = sandbox.control.webhooks();
		say(`   Activated: the service now sends ${subscription.events.join(', ')} events to n8n.`);

		const state = sandbox.control.state();
		const withOpenConversation = new Set(
			state.conversations.filter((c) => c.status === 'open').map((c) => c.lead_id),
		);
		const candidates = ownLeads(sandbox).filter(
			(lead) =>
				(lead.status === 'new' || lead.status === 'in_conversation') &&
				withOpenConversation.has(lead.id),
		);
		if (candidates.length < SCORES.length) {
			throw new Error('The sandbox has too few leads in conversation');
		}
		for (const [index, score] of SCORES.entries()) {
			const lead = candidates[index];
			pendingRun = undefined;
			sandbox.control.qualifyLead(lead.id, score);
			await sandbox.control.whenDeliveriesSettled();
			const run = pendingRun as Promise<RunResult> | undefined;
			if (!run) {
				say(`   ${lead.name} qualifies with score ${score}: no run, the trigger starts at 70.`);
				continue;
			}
			const result = await run;
			checkRun(result, 'Assign qualified leads');
			const [item] = result.output('Assign the advisor');
			const { advisor, leftAsItWas } = item.json.assignment as IDataObject;
			if (leftAsItWas) {
				say(`   ${lead.name} qualifies with score ${score}: already with ${String(advisor)},`);
				say('     kept; no turn used, no message sent.');
				continue;
			}
			assigned.push({ leadId: lead.id, name: lead.name, advisor: String(advisor) });
			const [message] = result.output('Tell the lead');
			say(`   ${lead.name} qualifies with score ${score} → assigned to ${String(advisor)};`);
			say(
				message
					? `     told: "${String(message.json.content)}"`
					: '     no open conversation to tell the lead in.',
			);
		}

		await trigger.deactivate();
		say(
			`   Deactivated: ${sandbox.control.webhooks().length} subscription(s) left in the service.`,
		);
	} finally {
		await receiver.close();
	}
	return { assigned };
}
