// examples/qualified-lead-round-robin.json through n8n's engine with n8n's own Data Table, Merge
// and Filter nodes: several leads in one run, from the webhook trigger or from the Polling Trigger
// put in its place, each assigned once, the roster read once.
import { randomUUID } from 'crypto';
import { readFileSync } from 'fs';
import { join } from 'path';

import type { IDataObject, INode } from 'n8n-workflow';

import { InMemoryDataTables, runWorkflow, type WorkflowSpec } from '../../../../harness/engine';
import { POLL_TRIGGER_NODE_TYPE, createPollHarness } from '../../../../harness/engine/poll';
import { LeadConversationsPollTrigger } from '../../../../nodes/LeadConversationsPollTrigger/LeadConversationsPollTrigger.node';
import { n8nEngine } from '../../../compat/engine';
import { credentialsOf, useSandbox } from '../../../support/useSandbox';

// The 1.x engine suite has n8n-core and n8n-workflow 1.x but not n8n 1.x's own nodes; real n8n
// 1.123 runs the examples in `npm run test:compat` (test/compat/README.md).
const describeOnN8n2 = n8nEngine.major === 1 ? describe.skip : describe;

const ctx = useSandbox({ leads: 60 });

const WEBHOOK_TRIGGER = 'Lead qualified (score 70+)';
const POLL_TRIGGER = 'Lead Conversations Polling Trigger';
const ROSTER = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz'];

/** The example under an ID of its own: Take Turns keeps its rotation per workflow. */
function shipped(): WorkflowSpec {
	const path = join(__dirname, '../../../../examples/qualified-lead-round-robin.json');
	return { ...(JSON.parse(readFileSync(path, 'utf8')) as WorkflowSpec), id: randomUUID() };
}

/** The example as activated: n8n runs production executions without pinned data. */
function activated(): WorkflowSpec {
	return { ...shipped(), pinData: {} };
}

/** The example with its trigger swapped for the Polling Trigger, as the editor does it. */
function withPollTrigger(): WorkflowSpec {
	const workflow = activated();
	const webhook = workflow.nodes.find((node) => node.name === WEBHOOK_TRIGGER)!;
	const poll: Partial<INode> & Pick<INode, 'name' | 'type'> = {
		id: 'poll-trigger',
		name: POLL_TRIGGER,
		type: POLL_TRIGGER_NODE_TYPE,
		typeVersion: 1,
		position: webhook.position,
		parameters: { event: 'leadStatus', statuses: ['qualified'] },
		credentials: webhook.credentials,
	};
	workflow.nodes = workflow.nodes.map((node) => (node === webhook ? poll : node));
	const { [WEBHOOK_TRIGGER]: outgoing, ...rest } = workflow.connections;
	workflow.connections = { [POLL_TRIGGER]: outgoing, ...rest };
	return workflow;
}

function rosterTable(rows: IDataObject[] = ROSTER.map((user_id) => ({ user_id }))) {
	const tables = new InMemoryDataTables();
	tables.create(
		'Advisors roster',
		{ user_id: 'string', weight: 'number', away: 'boolean' },
		rows.map((row) => ({ weight: null, away: null, ...row }) as never),
	);
	return tables;
}

/** Seeded leads with an open conversation and no advisor, qualified now (score 85). */
function qualifiedLeads(count: number) {
	const state = ctx.sandbox.control.state();
	const open = new Set(
		state.conversations.filter((c) => c.status === 'open').map((c) => c.lead_id),
	);
	const leads = state.leads.filter(
		(lead) =>
			lead.organization_id === 'org_alpha' &&
			['new', 'in_conversation'].includes(lead.status) &&
			lead.assigned_to === null &&
			open.has(lead.id),
	);
	expect(leads.length).toBeGreaterThanOrEqual(count);
	return leads.slice(0, count).map((lead) => ctx.sandbox.control.qualifyLead(lead.id, 85));
}

const stored = (id: string) => ctx.sandbox.control.state().leads.find((lead) => lead.id === id)!;
const humanMessagesTo = (leadId: string) =>
	ctx.sandbox.control
		.state()
		.conversations.filter((conversation) => conversation.lead_id === leadId)
		.flatMap((conversation) => conversation.messages ?? [])
		.filter((message) => message.sent_by === 'human')
		.map((message) => message.content);

async function run(
	workflow: WorkflowSpec,
	startNode: string,
	items: IDataObject[],
	tables: InMemoryDataTables,
) {
	return await runWorkflow(workflow, credentialsOf(ctx.sandbox), {
		startNode,
		inputItems: items,
		mode: 'trigger',
		dataTables: tables,
		nodeTypes: { [POLL_TRIGGER_NODE_TYPE]: new LeadConversationsPollTrigger() },
	});
}

function expectEachAssignedOnce(
	result: Awaited<ReturnType<typeof run>>,
	leadIds: string[],
	tables: InMemoryDataTables,
) {
	expect(result.error).toBeUndefined();
	expect(result.status).toBe('success');
	expect(tables.readsOf('Advisors roster')).toBe(1);
	const assigned = result.output('Assign the advisor').map((item) => item.json);
	expect(assigned.map((lead) => lead.id)).toEqual(leadIds);
	expect(assigned.map((lead) => lead.assigned_to)).toEqual(ROSTER);
	for (const id of leadIds) {
		expect(stored(id)).toMatchObject({ status: 'assigned' });
		expect(ROSTER).toContain(stored(id).assigned_to);
	}
	expect(result.output('Tell the lead')).toHaveLength(leadIds.length);
	for (const id of leadIds) {
		expect(humanMessagesTo(id)).toEqual(['An advisor will contact you shortly']);
	}
	const patches = ctx.sandbox.control.requests().filter((r) => r.method === 'PATCH');
	expect(patches.map((r) => r.path).sort()).toEqual(leadIds.map((id) => `/v1/leads/${id}`).sort());
}

describeOnN8n2('the round-robin example with several leads in one run', () => {
	test('webhook trigger, 3 events in one run: 3 leads assigned in turn, the roster read once', async () => {
		const leads = qualifiedLeads(3);
		ctx.sandbox.control.clearRequests();
		const tables = rosterTable();
		const events = leads.map((data) => ({ event: 'lead.qualified', data }) as IDataObject);
		const result = await run(activated(), WEBHOOK_TRIGGER, events, tables);
		expectEachAssignedOnce(
			result,
			leads.map((lead) => lead.id),
			tables,
		);
	});

	test('Polling Trigger in its place (Lead Reached a Status: Qualified), 3 leads in one poll: 3 assigned, the roster read once', async () => {
		const poll = createPollHarness(
			{ event: 'leadStatus', statuses: ['qualified'] },
			credentialsOf(ctx.sandbox),
		);
		expect((await poll.poll()).items).toBeNull();
		const leads = qualifiedLeads(3);
		const { items } = await poll.poll();
		expect(items).toHaveLength(3);
		expect(items![0]).not.toHaveProperty('data');
		ctx.sandbox.control.clearRequests();
		const tables = rosterTable();
		const result = await run(withPollTrigger(), POLL_TRIGGER, items!, tables);
		const ids = items!.map((item) => String(item.id));
		expect([...ids].sort()).toEqual(leads.map((lead) => lead.id).sort());
		expectEachAssignedOnce(result, ids, tables);
	});

	test('a lead that already has an advisor keeps them and is not messaged; the others take the turns', async () => {
		const leads = qualifiedLeads(3);
		ctx.sandbox.control.reset({ leads: 12 });
		const [kept, ...fresh] = [
			ctx.sandbox.control.createChannelLead({
				status: 'qualified',
				assigned_to: 'user_manager_pick',
			}),
			...qualifiedLeads(2),
		];
		expect(leads).toHaveLength(3);
		const tables = rosterTable();
		const events = [kept, ...fresh].map(
			(data) => ({ event: 'lead.qualified', data }) as IDataObject,
		);
		const result = await run(activated(), WEBHOOK_TRIGGER, events, tables);
		expect(result.error).toBeUndefined();
		expect(stored(kept.id).assigned_to).toBe('user_manager_pick');
		expect(fresh.map((lead) => stored(lead.id).assigned_to)).toEqual(ROSTER.slice(0, 2));
		expect(result.output('Newly assigned').map((item) => item.json.id)).toEqual(
			fresh.map((l) => l.id),
		);
		expect(humanMessagesTo(kept.id)).toHaveLength(0);
		expect(tables.readsOf('Advisors roster')).toBe(1);
	});

	test('an empty roster table stops the run with the roster named, nothing sent', async () => {
		const [lead] = qualifiedLeads(1);
		ctx.sandbox.control.clearRequests();
		const result = await run(
			activated(),
			WEBHOOK_TRIGGER,
			[{ event: 'lead.qualified', data: lead }],
			rosterTable([]),
		);
		expect(result.error?.message).toBe('Roster Rows is empty: add at least one advisor [item 0]');
		expect(ctx.sandbox.control.requests()).toHaveLength(0);
	});

	test('Execute workflow with the pinned sample: the whole path, green, and no request to the service', async () => {
		const workflow = shipped();
		const [sample] = workflow.pinData![WEBHOOK_TRIGGER];
		expect(sample.json).toMatchObject({ event: 'lead.qualified', sample: true });
		ctx.sandbox.control.clearRequests();
		const tables = rosterTable();
		const result = await runWorkflow(workflow, credentialsOf(ctx.sandbox), {
			startNode: WEBHOOK_TRIGGER,
			mode: 'manual',
			dataTables: tables,
		});
		expect(result.error).toBeUndefined();
		expect(result.output('Newly assigned')).toHaveLength(1);
		expect(result.output('Tell the lead')).toEqual([
			expect.objectContaining({ json: expect.objectContaining({ sample: true }) }),
		]);
		expect(ctx.sandbox.control.requests()).toEqual([]);
		expect(tables.readsOf('Advisors roster')).toBe(0);
	});
});
