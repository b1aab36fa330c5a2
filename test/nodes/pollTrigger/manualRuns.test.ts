// Test runs of the polling trigger (Fetch Test Event, and Execute workflow in the editor: both are
// n8n's manual mode), every event, through n8n's engine against the sandbox. A test run gives
// what a poll would see now, never a decision it did not make, writes nothing and moves no
// position; with nothing to give it stops with an error naming the event.

import type { INodeParameters } from 'n8n-workflow';

import type { RunningSandbox } from '../../../sandbox/contract';
import { useSandbox } from '../../support/useSandbox';
import { NEW_LEAD, QUALIFIED, TRANSFERRED, idsOf, pollTrigger, setLeadStatus } from './helpers';
import {
	ADVISOR_A,
	ADVISOR_B,
	MINUTE,
	NOT_CONTACTED,
	assign,
	leadWithOpenConversation,
	postAsAdvisor,
} from './notContactedHelpers';

const ctx = useSandbox();
const advance = (ms: number) => ctx.sandbox.control.advanceClock(ms);
const trigger = (parameters: INodeParameters) => pollTrigger(ctx.sandbox, parameters);

/** The requests that are not reads: what a test run must never send. */
const writes = (sandbox: RunningSandbox) =>
	sandbox.control.requests().filter((request) => request.method !== 'GET');

/** Moves the seed's assigned leads out of assigned, so a test sees only the leads it assigns. */
async function noLeadAssigned(sandbox: RunningSandbox) {
	const assigned = sandbox.control
		.state()
		.leads.filter((lead) => lead.organization_id === 'org_alpha' && lead.status === 'assigned');
	for (const lead of assigned) await setLeadStatus(sandbox, lead.id, 'closed');
	sandbox.control.clearRequests();
}

describe('a test run of Assigned Lead Not Contacted checks contact as a poll does', () => {
	beforeEach(async () => await noLeadAssigned(ctx.sandbox));

	test('a lead assigned 41 s ago under a 15-minute wait: not returned; the run stops with a clear error', async () => {
		const { lead } = leadWithOpenConversation(ctx.sandbox);
		await assign(ctx.sandbox, lead.id, ADVISOR_A);
		ctx.sandbox.control.clearRequests();
		advance(41_000);
		const { items, error } = await trigger(NOT_CONTACTED).fetchTestEvent();
		expect(items).toBeNull();
		expect(error?.message).toBe('No assigned lead is waiting now');
		expect((error as { description?: string }).description).toContain(
			'None of the 1 assigned leads has waited 15 minutes',
		);
		expect(writes(ctx.sandbox)).toEqual([]);
	});

	test('the wait ended: the lead whose advisor wrote is not returned, the one nobody contacted is', async () => {
		const contacted = leadWithOpenConversation(ctx.sandbox, 0);
		await assign(ctx.sandbox, contacted.lead.id, ADVISOR_A);
		const silent = leadWithOpenConversation(ctx.sandbox, 0);
		const silentAssigned = await assign(ctx.sandbox, silent.lead.id, ADVISOR_B);
		advance(2 * MINUTE);
		await postAsAdvisor(ctx.sandbox, contacted.conversation.id, 'Hi, this is Ana.');
		advance(14 * MINUTE);
		ctx.sandbox.control.clearRequests();

		const { items, error } = await trigger(NOT_CONTACTED).fetchTestEvent();
		expect(error).toBeUndefined();
		expect(items).toEqual([
			expect.objectContaining({
				id: silent.lead.id,
				assigned_to: ADVISOR_B,
				waiting_since: silentAssigned.updated_at,
				missed_by: [ADVISOR_B],
				misses: 1,
				event: 'lead.not_contacted',
			}),
		]);
		// Both leads' conversations were read: contact was checked, not assumed.
		const read = ctx.sandbox.control
			.requests()
			.filter((request) => request.path.endsWith('/conversations'))
			.map((request) => request.query.lead_id);
		expect(read.sort()).toEqual([contacted.lead.id, silent.lead.id].sort());
		expect(writes(ctx.sandbox)).toEqual([]);
	});

	test('a test run moves no wait: the scheduled polls still announce the lead once', async () => {
		const scheduled = trigger(NOT_CONTACTED);
		await scheduled.poll();
		const position = scheduled.position;
		const { lead } = leadWithOpenConversation(ctx.sandbox);
		await assign(ctx.sandbox, lead.id, ADVISOR_A);
		await scheduled.poll();
		const noted = scheduled.position;
		advance(16 * MINUTE);
		expect(idsOf((await scheduled.fetchTestEvent()).items)).toEqual([lead.id]);
		expect(scheduled.position).toEqual(noted);
		expect(scheduled.position).not.toEqual(position);
		expect(scheduled.executions).toHaveLength(0);
		expect(idsOf((await scheduled.poll()).items)).toEqual([lead.id]);
		expect((await scheduled.poll()).items).toBeNull();
	});

	test('no lead in assigned: the error names the event and changes nothing', async () => {
		const { error } = await trigger(NOT_CONTACTED).fetchTestEvent();
		expect(error?.message).toBe('No assigned lead is waiting now');
		expect((error as { description?: string }).description).toContain('None of the 0 assigned');
		expect(ctx.sandbox.control.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /v1/leads',
		]);
	});

	test('a seeded lead nobody wrote to for months is returned, waiting since its last update', async () => {
		ctx.sandbox.control.reset();
		ctx.sandbox.control.clearRequests();
		const { items, error } = await trigger(NOT_CONTACTED).fetchTestEvent();
		expect(error).toBeUndefined();
		expect(items!.length).toBeGreaterThan(0);
		const { leads } = ctx.sandbox.control.state();
		for (const item of items!) {
			const lead = leads.find((l) => l.id === item.id)!;
			expect(lead).toMatchObject({ status: 'assigned', assigned_to: item.assigned_to });
			expect(item.waiting_since).toBe(lead.updated_at);
			// Its conversations were read before it was returned.
			expect(ctx.sandbox.control.requests().some((r) => r.query.lead_id === item.id)).toBe(true);
		}
		expect(writes(ctx.sandbox)).toEqual([]);
	});
});

describe('a test run of the other events gives the latest records as they are now', () => {
	test('New Lead: the newest leads as lead.created, no write, no position', async () => {
		const scheduled = trigger(NEW_LEAD);
		await scheduled.poll();
		const position = scheduled.position;
		const newest = [1, 2, 3].map(() => ctx.sandbox.control.createChannelLead().id);
		ctx.sandbox.control.clearRequests();
		const { items } = await scheduled.fetchTestEvent();
		expect(idsOf(items).sort()).toEqual(newest.sort());
		for (const item of items!) expect(item.event).toBe('lead.created');
		expect(scheduled.position).toEqual(position);
		expect(writes(ctx.sandbox)).toEqual([]);
	});

	test('New or Updated Lead: lead.updated only for a lead whose record shows a change', async () => {
		const fresh = ctx.sandbox.control.createChannelLead();
		const { items } = await trigger({ event: 'leadChanged' }).fetchTestEvent();
		const { leads } = ctx.sandbox.control.state();
		expect(idsOf(items)).toContain(fresh.id);
		for (const item of items!) {
			const lead = leads.find((l) => l.id === item.id)!;
			const changed = lead.updated_at !== lead.created_at;
			expect(item.event).toBe(changed ? 'lead.updated' : 'lead.created');
		}
		expect(writes(ctx.sandbox)).toEqual([]);
	});

	test('Lead Reached a Status: only leads in the status now', async () => {
		const { items } = await trigger(QUALIFIED).fetchTestEvent();
		const { leads } = ctx.sandbox.control.state();
		expect(items!.length).toBeGreaterThan(0);
		for (const item of items!) {
			expect(leads.find((l) => l.id === item.id)?.status).toBe('qualified');
			expect(item.event).toBe('lead.qualified');
		}
		expect(writes(ctx.sandbox)).toEqual([]);
	});

	test('Conversation Handed to a Human: only transferred conversations, the status before unknown', async () => {
		const { items, error } = await trigger(TRANSFERRED).fetchTestEvent();
		expect(error).toBeUndefined();
		const { conversations } = ctx.sandbox.control.state();
		for (const item of items!) {
			expect(conversations.find((c) => c.id === item.id)?.status).toBe('transferred');
			expect(item).toMatchObject({ status: 'transferred', previous_status: null });
		}
		expect(writes(ctx.sandbox)).toEqual([]);
	});

	test.each([
		[NEW_LEAD, 'The account has no lead yet'],
		[{ event: 'leadChanged' }, 'The account has no lead yet'],
		[{ event: 'leadStatus', statuses: ['in_conversation'] }, 'No lead is in In Conversation now'],
		[TRANSFERRED, 'No conversation is handed to a human now'],
	])('nothing to give (%j): an error naming what was looked for', async (parameters, message) => {
		// An account with no lead and no conversation.
		ctx.sandbox.control.reset({ leads: 0 });
		const { items, error } = await trigger(parameters).fetchTestEvent();
		expect(items).toBeNull();
		expect(error?.message).toBe(message);
	});
});
