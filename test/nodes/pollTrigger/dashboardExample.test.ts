// examples/speed-to-lead-dashboard.json's top half through n8n's engine: the Polling Trigger's
// Assigned Lead Contacted polled in n8n-core's PollContext on the sandbox's clock, its items run
// into n8n's own Data Table node (upsert on lead and advisor). The page's half needs n8n's Code
// node, which n8n 2.x runs only in its task runner: dashboardPage.test.ts runs its code, and
// test/e2e/specs/speed-to-lead-dashboard.e2e.ts the whole workflow in real n8n.
import { randomUUID } from 'crypto';
import { readFileSync } from 'fs';
import { join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import { InMemoryDataTables, runWorkflow, type WorkflowSpec } from '../../../harness/engine';
import { POLL_TRIGGER_NODE_TYPE, createPollHarness } from '../../../harness/engine/poll';
import { LeadConversationsPollTrigger } from '../../../nodes/LeadConversationsPollTrigger/LeadConversationsPollTrigger.node';
import { n8nEngine } from '../../compat/engine';
import { credentialsOf, useSandbox } from '../../support/useSandbox';
import {
	ADVISOR_A,
	ADVISOR_B,
	assign,
	leadWithOpenConversation,
	postAsAdvisor,
} from './notContactedHelpers';

// The 1.x engine suite has n8n-core 1.x but not n8n 1.x's own nodes.
const describeOnN8n2 = n8nEngine.major === 1 ? describe.skip : describe;

const ctx = useSandbox();
const TRIGGER = 'Advisor reached a lead';
const TABLE = 'First contacts';

function shipped(): WorkflowSpec {
	const path = join(__dirname, '../../../examples/speed-to-lead-dashboard.json');
	return { ...(JSON.parse(readFileSync(path, 'utf8')) as WorkflowSpec), id: randomUUID() };
}

function firstContactsTable(): InMemoryDataTables {
	const tables = new InMemoryDataTables();
	tables.create(
		TABLE,
		{
			lead_id: 'string',
			lead_name: 'string',
			advisor: 'string',
			waiting_since: 'string',
			contacted_at: 'string',
			response_seconds: 'number',
			response_open_minutes: 'number',
			channel: 'string',
		},
		[],
	);
	return tables;
}

describeOnN8n2('the speed-to-lead dashboard example, first contacts', () => {
	const workflow = shipped();
	const trigger = workflow.nodes.find((node) => node.name === TRIGGER)!;
	const run = async (items: IDataObject[], dataTables: InMemoryDataTables) =>
		await runWorkflow({ ...workflow, pinData: {} }, credentialsOf(ctx.sandbox), {
			startNode: TRIGGER,
			inputItems: items,
			mode: 'trigger',
			dataTables,
			nodeTypes: { [POLL_TRIGGER_NODE_TYPE]: new LeadConversationsPollTrigger() },
		});
	const at = (iso: string, seconds: number) => Date.parse(iso) + seconds * 1000 + 300;
	const advanceTo = (ms: number) =>
		ctx.sandbox.control.advanceClock(Math.max(0, ms - Date.parse(ctx.sandbox.control.clock().now)));

	test('one row per lead and advisor with the response in seconds; the same event again changes nothing; a new advisor adds a row', async () => {
		const poll = createPollHarness(trigger.parameters ?? {}, credentialsOf(ctx.sandbox), {
			nodeName: TRIGGER,
			typeVersion: trigger.typeVersion,
		});
		expect((await poll.poll()).items).toBeNull();
		const [fast, slow] = [0, 1].map((i) => leadWithOpenConversation(ctx.sandbox, i));
		const fastWait = await assign(ctx.sandbox, fast.lead.id, ADVISOR_A);
		const slowWait = await assign(ctx.sandbox, slow.lead.id, ADVISOR_B);
		expect((await poll.poll()).items).toBeNull();
		advanceTo(at(fastWait.updated_at, 42));
		await postAsAdvisor(ctx.sandbox, fast.conversation.id, 'Ana here: when can I call you?');
		advanceTo(at(slowWait.updated_at, 1234));
		await postAsAdvisor(ctx.sandbox, slow.conversation.id, 'Bruno here, sorry for the wait.');
		const { items } = await poll.poll();
		expect(items).toHaveLength(2);

		const tables = firstContactsTable();
		expect((await run(items!, tables)).error).toBeUndefined();
		const rowsNow = () =>
			tables
				.rowsOf(TABLE)
				.map((row) => [
					row.lead_id,
					row.advisor,
					row.waiting_since,
					row.response_seconds,
					row.channel,
				]);
		const expected = [
			[fast.lead.id, ADVISOR_A, fastWait.updated_at, 42, fast.conversation.channel],
			[slow.lead.id, ADVISOR_B, slowWait.updated_at, 1234, slow.conversation.channel],
		];
		expect(rowsNow()).toEqual(expected);
		// A poll emitted again (n8n had not stored where the last one stopped): the same rows.
		expect((await run(items!, tables)).error).toBeUndefined();
		expect(rowsNow()).toEqual(expected);

		// Passed on to Ana, who answers in 8 s: a second row for the lead, Bruno's kept.
		const passed = await assign(ctx.sandbox, slow.lead.id, ADVISOR_A);
		expect((await poll.poll()).items).toBeNull();
		advanceTo(at(passed.updated_at, 8));
		await postAsAdvisor(ctx.sandbox, slow.conversation.id, 'Ana here, I have your file.');
		const next = await poll.poll();
		expect((await run(next.items!, tables)).error).toBeUndefined();
		expect(rowsNow()).toEqual([
			...expected,
			[slow.lead.id, ADVISOR_A, passed.updated_at, 8, slow.conversation.channel],
		]);
	});

	test('Execute workflow with the pinned sample: the path shown, nothing read from the service, nothing stored, twice', async () => {
		const [sample] = workflow.pinData![TRIGGER].map((item) => item.json);
		expect(sample.sample).toBe(true);
		ctx.sandbox.control.clearRequests();
		const tables = firstContactsTable();
		for (const attempt of [1, 2]) {
			const result = await runWorkflow(workflow, credentialsOf(ctx.sandbox), {
				startNode: TRIGGER,
				mode: 'manual',
				dataTables: tables,
				nodeTypes: { [POLL_TRIGGER_NODE_TYPE]: new LeadConversationsPollTrigger() },
			});
			expect({ attempt, error: result.error }).toEqual({ attempt, error: undefined });
			const [kept] = result.output('Keep the first contact').map((item) => item.json);
			expect([kept.lead_id, kept.advisor, kept.response_seconds]).toEqual([
				sample.id,
				sample.advisor,
				sample.response_seconds,
			]);
		}
		expect(ctx.sandbox.control.requests()).toEqual([]);
		expect(tables.rowsOf(TABLE)).toEqual([]);
	});
});
