// Step 3 of `npm run demo`: nudge stalled conversations. examples/stalled-conversation-nudge.json
// started by its schedule once.

import { runWorkflow } from '../../harness/engine';
import { checkRun, leadName, loadExample, wrap, type DemoService, type Say } from './common';

export const NUDGE_EXAMPLE = 'stalled-conversation-nudge.json';
const SHOWN = 5;

export async function nudgeStalledConversations(
	{ sandbox, credentials }: DemoService,
	say: Say,
): Promise<void> {
	const workflow = loadExample(NUDGE_EXAMPLE);
	say(`3. Nudge stalled conversations (examples/${NUDGE_EXAMPLE})`);

	// Two conversations had news today, so they are not stalled.
	const open = sandbox.control
		.state()
		.conversations.filter((c) => c.organization_id === 'org_alpha' && c.status === 'open');
	for (const conversation of open.slice(0, 2)) {
		sandbox.control.reachMilestone(conversation.id, 'budget_identified');
	}

	const result = await runWorkflow(workflow, credentials, {
		startNode: 'Every day at 9',
		mode: 'trigger',
	});
	checkRun(result, 'Nudge stalled conversations');
	const listed = result.output('Open conversations');
	const stalled = result.output('Quiet for 2+ days');
	const sent = result.output('Send follow-up');
	say(
		`   ${listed.length} open conversations; ${listed.length - stalled.length} had a message in the last 2 days.`,
	);
	say(`   The ${sent.length} quiet for longer got a follow-up:`);
	for (const item of stalled.slice(0, SHOWN)) {
		const since = String(item.json.last_message_at).slice(0, 10);
		const lead = leadName(sandbox, String(item.json.lead_id));
		say(`   - ${lead} (${String(item.json.channel)}, quiet since ${since})`);
	}
	if (stalled.length > SHOWN) say(`   - and ${stalled.length - SHOWN} more`);
	if (sent[0]) {
		say('   It reads:');
		for (const line of wrap(`"${String(sent[0].json.content)}"`)) say(`     ${line}`);
	}
}
