// The polling trigger's Lead Reached a Status and Conversation Handed to a Human events.

import { useSandbox } from '../../support/useSandbox';
import {
	QUALIFIED,
	TRANSFERRED,
	idsOf,
	requestsDuring,
	setLeadStatus,
	describeEachKeeping,
} from './helpers';

const ctx = useSandbox();

describeEachKeeping(ctx, (pollTrigger) => {
	describe('Lead Reached a Status', () => {
		const newLeadIds = () =>
			ctx.sandbox.control
				.state()
				.leads.filter((lead) => lead.status === 'new' && lead.organization_id === 'org_alpha')
				.map((lead) => lead.id);

		test('a lead that reaches qualified starts one execution; leads qualified before activation none', async () => {
			const trigger = pollTrigger(QUALIFIED);
			expect((await trigger.poll()).items).toBeNull();
			const [id] = newLeadIds();
			ctx.sandbox.control.qualifyLead(id, 90);
			const { items } = await trigger.poll();
			expect(idsOf(items)).toEqual([id]);
			expect(items![0]).toMatchObject({ event: 'lead.qualified', status: 'qualified', score: 90 });
			expect((await trigger.poll()).items).toBeNull();
			trigger.restart();
			expect((await trigger.poll()).items).toBeNull();
		});

		test('a lead that leaves the status and comes back starts a second execution', async () => {
			const trigger = pollTrigger(QUALIFIED);
			await trigger.poll();
			const [id] = newLeadIds();
			ctx.sandbox.control.qualifyLead(id);
			await trigger.poll();
			await setLeadStatus(ctx.sandbox, id, 'in_conversation');
			expect((await trigger.poll()).items).toBeNull();
			await setLeadStatus(ctx.sandbox, id, 'qualified');
			expect(idsOf((await trigger.poll()).items)).toEqual([id]);
		});

		test('the minimum score is checked when the lead reaches the status', async () => {
			const trigger = pollTrigger({ ...QUALIFIED, filters: { minimumScore: 80 } });
			await trigger.poll();
			const [low, high] = newLeadIds();
			ctx.sandbox.control.qualifyLead(low, 60);
			ctx.sandbox.control.qualifyLead(high, 95);
			expect(idsOf((await trigger.poll()).items)).toEqual([high]);
			// Remembered although filtered out: a later score change does not make it "reach" qualified.
			ctx.sandbox.control.qualifyLead(low, 99);
			expect((await trigger.poll()).items).toBeNull();
		});

		test('a poll reads every record in the status: ⌈n/100⌉ requests, and keeps only their IDs', async () => {
			const trigger = pollTrigger(QUALIFIED);
			const inStatus = ctx.sandbox.control
				.state()
				.leads.filter(
					(lead) => lead.status === 'qualified' && lead.organization_id === 'org_alpha',
				);
			await trigger.poll();
			expect(await requestsDuring(ctx.sandbox, () => trigger.poll())).toBe(
				Math.max(1, Math.ceil(inStatus.length / 100)),
			);
			expect((trigger.position.inStatus as Record<string, string[]>).qualified.sort()).toEqual(
				inStatus.map((lead) => lead.id).sort(),
			);
		});

		test('Fetch Test Event returns the most recently changed leads that meet the filters, and moves nothing', async () => {
			const trigger = pollTrigger({ ...QUALIFIED, filters: { minimumScore: 80 } });
			await trigger.poll();
			const position = trigger.position;
			const [low, high] = newLeadIds();
			ctx.sandbox.control.qualifyLead(high, 97);
			ctx.sandbox.control.qualifyLead(low, 50);
			const { items, error } = await trigger.fetchTestEvent();
			expect(error).toBeUndefined();
			expect(items![0]).toMatchObject({ id: high, event: 'lead.qualified', score: 97 });
			expect(idsOf(items)).not.toContain(low);
			expect(items!.every((item) => Number(item.score) >= 80)).toBe(true);
			expect(trigger.position).toEqual(position);
			expect(idsOf((await trigger.poll()).items)).toEqual([high]);
		});

		test('assigned leads come as lead.assigned with assigned_to', async () => {
			const trigger = pollTrigger({ event: 'leadStatus', statuses: ['assigned'] });
			await trigger.poll();
			const [id] = newLeadIds();
			await setLeadStatus(ctx.sandbox, id, 'assigned');
			const [item] = (await trigger.poll()).items!;
			expect(item).toMatchObject({ id, event: 'lead.assigned', status: 'assigned' });
			expect(item).toHaveProperty('assigned_to');
		});
	});

	describe('Conversation Handed to a Human', () => {
		test('a conversation that becomes transferred starts one execution', async () => {
			const trigger = pollTrigger(TRANSFERRED);
			await trigger.poll();
			const open = ctx.sandbox.control
				.state()
				.conversations.find((c) => c.status === 'open' && c.organization_id === 'org_alpha')!;
			ctx.sandbox.control.changeConversationStatus(open.id, 'transferred');
			const { items } = await trigger.poll();
			expect(items).toEqual([
				expect.objectContaining({
					id: open.id,
					lead_id: open.lead_id,
					status: 'transferred',
					previous_status: null,
					event: 'conversation.status_changed',
				}),
			]);
			expect((await trigger.poll()).items).toBeNull();
		});
	});
});
