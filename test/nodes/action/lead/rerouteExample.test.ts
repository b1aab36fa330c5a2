// examples/reroute-uncontacted-leads.json through n8n's engine with n8n's own Data Table, Merge,
// If and Filter nodes: the Polling Trigger's Assigned Lead Not Contacted polled in n8n-core's
// PollContext on the sandbox's clock, its items run through the workflow as n8n would. First
// misses are passed on once each, second misses escalated, a lead nobody can take logged.
import { randomUUID } from 'crypto';
import { readFileSync } from 'fs';
import { join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import {
	InMemoryDataTables,
	runWorkflow,
	useMemoryDeduplication,
	type WorkflowSpec,
} from '../../../../harness/engine';
import { POLL_TRIGGER_NODE_TYPE, createPollHarness } from '../../../../harness/engine/poll';
import {
	HAND_OFFS_COLUMNS,
	HAND_OFFS_TABLE,
	HAND_OFF_OUTCOMES,
} from '../../../../harness/support/handOffsTable';
import { moveIntoOpenHours } from '../../../../harness/support/showroomHours';
import { LeadConversationsPollTrigger } from '../../../../nodes/LeadConversationsPollTrigger/LeadConversationsPollTrigger.node';
import { n8nEngine } from '../../../compat/engine';
import { credentialsOf, useSandbox } from '../../../support/useSandbox';

// The 1.x engine suite has n8n-core and n8n-workflow 1.x but not n8n 1.x's own nodes; real n8n
// 1.123 runs the examples in `npm run test:compat` (test/compat/README.md).
const describeOnN8n2 = n8nEngine.major === 1 ? describe.skip : describe;

const ctx = useSandbox({ leads: 0 });
// n8n's de-duplication store, behind the example's Remove Duplicates node.
beforeAll(useMemoryDeduplication);

const TRIGGER = 'Lead waited 15 minutes';
const MINUTE = 60_000;
const PLAIN = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz'];
const PICKUP = ['user_dario_sosa', 'user_elena_paz'];

function shipped(): WorkflowSpec {
	const path = join(__dirname, '../../../../examples/reroute-uncontacted-leads.json');
	return { ...(JSON.parse(readFileSync(path, 'utf8')) as WorkflowSpec), id: randomUUID() };
}

function tables(roster: IDataObject[] = defaultRoster()) {
	const all = new InMemoryDataTables();
	all.create(
		'Advisors roster',
		{
			user_id: 'string',
			weight: 'number',
			away: 'boolean',
			channels: 'string',
			intents: 'string',
			min_score: 'number',
			vehicle_words: 'string',
		},
		roster.map(
			(row) =>
				({
					weight: null,
					away: null,
					channels: null,
					intents: null,
					min_score: null,
					vehicle_words: null,
					...row,
				}) as never,
		),
	);
	all.create(HAND_OFFS_TABLE, HAND_OFFS_COLUMNS, []);
	return all;
}

function defaultRoster(): IDataObject[] {
	return [
		...PLAIN.map((user_id) => ({ user_id })),
		{ user_id: PICKUP[0], vehicle_words: 'pickup, truck' },
		{ user_id: PICKUP[1], vehicle_words: 'truck' },
	];
}

const stored = (id: string) => ctx.sandbox.control.state().leads.find((lead) => lead.id === id)!;
const humanMessagesTo = (leadId: string) =>
	ctx.sandbox.control
		.state()
		.conversations.filter((conversation) => conversation.lead_id === leadId)
		.flatMap((conversation) => conversation.messages)
		.filter((message) => message.sent_by === 'human')
		.map((message) => message.content);

/** An assigned lead that wrote in on chat, as the round-robin example leaves it. */
function assignedLead(advisor: string, vehicle = 'Sedan, automatic') {
	const lead = ctx.sandbox.control.createChannelLead({
		status: 'assigned',
		assigned_to: advisor,
		score: 85,
		vehicle_interest: vehicle,
	});
	ctx.sandbox.control.leadWrites(lead.id);
	return lead;
}

function watch() {
	const poll = createPollHarness(
		{ event: 'assignedNotContacted', waitAmount: 15, waitUnit: 'minutes' },
		credentialsOf(ctx.sandbox),
	);
	return poll;
}

/** One run of the example as activated (no pinned data); `workflow` keeps its ID across runs. */
async function run(
	items: IDataObject[],
	dataTables: InMemoryDataTables,
	workflow: WorkflowSpec = shipped(),
) {
	return await runWorkflow({ ...workflow, pinData: {} }, credentialsOf(ctx.sandbox), {
		startNode: TRIGGER,
		inputItems: items,
		mode: 'trigger',
		dataTables,
		nodeTypes: { [POLL_TRIGGER_NODE_TYPE]: new LeadConversationsPollTrigger() },
	});
}

describeOnN8n2('the speed-to-lead example', () => {
	// Its trigger counts the wait in opening hours: every test starts at an open moment.
	beforeEach(() => moveIntoOpenHours(ctx.sandbox.control));

	test('first misses in one poll: each lead passed on once to an advisor who fits and did not have it, told, logged; the roster read once', async () => {
		const poll = watch();
		expect((await poll.poll()).items).toBeNull();
		const leads = [
			assignedLead(PLAIN[0]),
			assignedLead(PLAIN[1]),
			assignedLead(PICKUP[0], 'Pickup truck, diesel'),
		];
		expect((await poll.poll()).items).toBeNull();
		ctx.sandbox.control.advanceClock(16 * MINUTE);
		const { items } = await poll.poll();
		expect(items!.map((item) => item.id)).toEqual(expect.arrayContaining(leads.map((l) => l.id)));
		ctx.sandbox.control.clearRequests();
		const all = tables();
		const result = await run(items!, all);
		expect(result.error).toBeUndefined();
		expect(all.readsOf('Advisors roster')).toBe(1);
		const [plainA, plainB, pickup] = leads.map((lead) => stored(lead.id).assigned_to);
		expect(PLAIN.filter((user) => user !== PLAIN[0])).toContain(plainA);
		expect(PLAIN.filter((user) => user !== PLAIN[1])).toContain(plainB);
		expect(pickup).toBe(PICKUP[1]);
		for (const lead of leads) {
			expect(stored(lead.id).status).toBe('assigned');
			expect(humanMessagesTo(lead.id)).toEqual([
				'Thank you for waiting. Another advisor will contact you shortly.',
			]);
		}
		const rows = all.rowsOf(HAND_OFFS_TABLE);
		expect(rows.map((row) => [row.lead_id, row.outcome, row.advisor, row.waiting_since])).toEqual(
			items!.map((item) => [
				item.id,
				HAND_OFF_OUTCOMES.passedOn,
				stored(String(item.id)).assigned_to,
				item.waiting_since,
			]),
		);
		// 4 requests per lead passed on: GET and PATCH the lead, list its open conversation, post.
		const requests = ctx.sandbox.control.requests();
		expect(requests).toHaveLength(4 * leads.length);
		expect(requests.filter((r) => r.method === 'PATCH')).toHaveLength(leads.length);
	});

	test('second misses are escalated: a row each, the lead left with its advisor, no request sent', async () => {
		const poll = watch();
		await poll.poll();
		const second = assignedLead(PICKUP[0], 'Pickup truck');
		const alone = assignedLead(PLAIN[0], 'Pickup truck');
		const plain = assignedLead(PLAIN[1]);
		await poll.poll();
		ctx.sandbox.control.advanceClock(16 * MINUTE);
		const all = tables([
			...PLAIN.map((user_id) => ({ user_id })),
			{ user_id: PICKUP[0], vehicle_words: 'pickup' },
		]);
		// First misses: the pickup lead has no second pickup advisor, so no one fits it but
		// PICKUP[0], who had it: the plain advisors, without a rule, take it.
		const first = await poll.poll();
		const firstRun = await run(first.items!, all);
		expect(firstRun.error).toBeUndefined();
		const after = [second, alone, plain].map((lead) => stored(lead.id).assigned_to);
		expect(after[0]).not.toBe(PICKUP[0]);
		ctx.sandbox.control.advanceClock(16 * MINUTE);
		const { items } = await poll.poll();
		expect(items!.map((item) => item.misses)).toEqual([2, 2, 2]);
		ctx.sandbox.control.clearRequests();
		const secondRun = await run(items!, all);
		expect(secondRun.error).toBeUndefined();
		expect([second, alone, plain].map((lead) => stored(lead.id).assigned_to)).toEqual(after);
		expect(ctx.sandbox.control.requests()).toHaveLength(0);
		const escalated = all
			.rowsOf(HAND_OFFS_TABLE)
			.filter((row) => row.outcome === HAND_OFF_OUTCOMES.escalated);
		expect(escalated.map((row) => row.lead_id).sort()).toEqual(
			[second, alone, plain].map((lead) => lead.id).sort(),
		);
		for (const row of escalated) {
			expect(String(row.missed_by).split(', ')).toHaveLength(2);
			expect(row.advisor).toBe(stored(String(row.lead_id)).assigned_to);
		}
	});

	test('a lead nobody is left to take: a not_passed_on row, and the other leads of the poll still passed on', async () => {
		const poll = watch();
		await poll.poll();
		const stuck = assignedLead(PLAIN[0]);
		const fine = assignedLead(PLAIN[0]);
		await poll.poll();
		ctx.sandbox.control.advanceClock(16 * MINUTE);
		const { items } = await poll.poll();
		const roster = [{ user_id: PLAIN[0] }, { user_id: PLAIN[1] }];
		// Skip Advisors as the trigger would give it had PLAIN[1] missed the stuck lead before.
		const withHistory = items!.map((item) =>
			item.id === stuck.id ? { ...item, missed_by: [PLAIN[1], PLAIN[0]], misses: 1 } : item,
		);
		const all = tables(roster);
		const result = await run(withHistory, all);
		expect(result.error).toBeUndefined();
		expect(stored(stuck.id).assigned_to).toBe(PLAIN[0]);
		expect(stored(fine.id).assigned_to).toBe(PLAIN[1]);
		expect(
			all.rowsOf(HAND_OFFS_TABLE).map((row) => [row.lead_id, row.outcome, row.advisor]),
		).toEqual(
			expect.arrayContaining([
				[stuck.id, HAND_OFF_OUTCOMES.notPassedOn, PLAIN[0]],
				[fine.id, HAND_OFF_OUTCOMES.passedOn, PLAIN[1]],
			]),
		);
	});

	test('the same items in a second run (a poll emitted again before n8n stored where the first stopped): nothing handed off twice', async () => {
		const poll = watch();
		await poll.poll();
		const leads = [assignedLead(PLAIN[0]), assignedLead(PLAIN[1])];
		await poll.poll();
		ctx.sandbox.control.advanceClock(16 * MINUTE);
		const { items } = await poll.poll();
		const workflow = shipped();
		const all = tables();
		expect((await run(items!, all, workflow)).error).toBeUndefined();
		const after = leads.map((lead) => stored(lead.id).assigned_to);
		ctx.sandbox.control.clearRequests();
		const again = await run(items!, all, workflow);
		expect(again.error).toBeUndefined();
		expect(again.output('Once per lead and advisor')).toEqual([]);
		expect(leads.map((lead) => stored(lead.id).assigned_to)).toEqual(after);
		expect(ctx.sandbox.control.requests()).toHaveLength(0);
		expect(all.rowsOf(HAND_OFFS_TABLE)).toHaveLength(leads.length);
	});

	test('Execute workflow with the pinned samples: both paths shown, nothing sent, nothing stored, the same on a second try', async () => {
		const workflow = shipped();
		const samples = workflow.pinData![TRIGGER].map((item) => item.json);
		expect(samples.map((sample) => [sample.misses, sample.sample])).toEqual([
			[1, true],
			[2, true],
		]);
		ctx.sandbox.control.clearRequests();
		const all = tables();
		for (const attempt of [1, 2]) {
			const result = await runWorkflow(workflow, credentialsOf(ctx.sandbox), {
				startNode: TRIGGER,
				mode: 'manual',
				dataTables: all,
				nodeTypes: { [POLL_TRIGGER_NODE_TYPE]: new LeadConversationsPollTrigger() },
			});
			expect({ attempt, error: result.error }).toEqual({ attempt, error: undefined });
			const outcomes = ['Log the hand-off', 'Log the escalation'].map((node) =>
				result.output(node).map((item) => [item.json.lead_id, item.json.outcome]),
			);
			expect(outcomes).toEqual([
				[[samples[0].id, HAND_OFF_OUTCOMES.passedOn]],
				[[samples[1].id, HAND_OFF_OUTCOMES.escalated]],
			]);
			expect(result.output('Tell the lead')).toHaveLength(1);
		}
		expect(ctx.sandbox.control.requests()).toEqual([]);
		expect(all.rowsOf(HAND_OFFS_TABLE)).toEqual([]);
		expect(all.readsOf('Advisors roster')).toBe(0);
	});
});
