// A day at a showroom open Mon-Fri 09:00-20:00 (the reroute example's hours, New York, n8n's
// default zone), through n8n's engine with both examples as shipped: 60 qualified leads from 08:00
// to 22:00, three advisors with their own shifts and capacities in the roster table. Every third
// lead is answered and closed, every third answered and kept, the rest let wait. The reroute
// trigger is restarted at night. What must hold is checked on the service's clock with Intl.

import { randomUUID } from 'crypto';
import { readFileSync } from 'fs';
import { join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import {
	InMemoryDataTables,
	runWorkflow,
	useMemoryDeduplication,
} from '../../../../harness/engine';
import type { WorkflowSpec } from '../../../../harness/engine';
import { POLL_TRIGGER_NODE_TYPE, createPollHarness } from '../../../../harness/engine/poll';
import { HAND_OFFS_COLUMNS, HAND_OFFS_TABLE } from '../../../../harness/support/handOffsTable';
import { LeadConversationsPollTrigger } from '../../../../nodes/LeadConversationsPollTrigger/LeadConversationsPollTrigger.node';
import { n8nEngine } from '../../../compat/engine';
import { assign } from '../../pollTrigger/notContactedHelpers';
import { credentialsOf, useSandbox } from '../../../support/useSandbox';

const describeOnN8n2 = n8nEngine.major === 1 ? describe.skip : describe;
const ctx = useSandbox({ leads: 0 });
beforeAll(useMemoryDeduplication);

const MINUTE = 60_000;
const ZONE = 'America/New_York';
const RECIPE_TRIGGER = 'Lead waited 15 minutes';
const ROSTER = [
	{ user_id: 'user_ana_lopez', hours: 'Mon-Fri 09:00-15:00', time_zone: ZONE, capacity: 6 },
	{ user_id: 'user_bruno_diaz', hours: 'Mon-Fri 12:00-20:00', time_zone: null, capacity: 6 },
	{ user_id: 'user_carla_ruiz', hours: 'Mon-Fri 09:00-20:00', time_zone: null, capacity: 8 },
];
const SHIFTS: Record<string, [number, number]> = {
	user_ana_lopez: [9 * 60, 15 * 60],
	user_bruno_diaz: [12 * 60, 20 * 60],
	user_carla_ruiz: [9 * 60, 20 * 60],
};
const CAPACITY = Object.fromEntries(ROSTER.map((row) => [row.user_id, row.capacity]));

const wall = new Intl.DateTimeFormat('en-US', {
	timeZone: ZONE,
	weekday: 'short',
	hour: 'numeric',
	minute: 'numeric',
	hourCycle: 'h23',
});
/** Weekday and minute of the day in New York, read with Intl. */
function localOf(ms: number) {
	const parts = Object.fromEntries(wall.formatToParts(ms).map((p) => [p.type, p.value]));
	return { weekday: parts.weekday, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}
const weekday = (ms: number) => !['Sat', 'Sun'].includes(localOf(ms).weekday);
const showroomOpen = (ms: number) =>
	weekday(ms) && localOf(ms).minute >= 9 * 60 && localOf(ms).minute < 20 * 60;
const onShift = (advisor: string, ms: number) =>
	weekday(ms) &&
	localOf(ms).minute >= SHIFTS[advisor][0] &&
	localOf(ms).minute < SHIFTS[advisor][1];

const now = () => Date.parse(ctx.sandbox.control.clock().now);
const moveTo = (ms: number) => ctx.sandbox.control.advanceClock(Math.max(0, ms - now()));

function example(file: string): WorkflowSpec {
	const path = join(__dirname, '../../../../examples', file);
	return {
		...(JSON.parse(readFileSync(path, 'utf8')) as WorkflowSpec),
		id: randomUUID(),
		pinData: {},
	};
}

function tables() {
	const all = new InMemoryDataTables();
	const columns = { user_id: 'string', weight: 'number', away: 'boolean', hours: 'string' };
	all.create(
		'Advisors roster',
		{ ...columns, time_zone: 'string', capacity: 'number' } as never,
		ROSTER.map((row) => ({ weight: null, away: null, ...row }) as never),
	);
	all.create(HAND_OFFS_TABLE, HAND_OFFS_COLUMNS, []);
	return all;
}

/** Leads in `assigned` per advisor, from the service's state. */
function loads(): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const lead of ctx.sandbox.control.state().leads) {
		if (lead.status === 'assigned' && lead.assigned_to) {
			counts[lead.assigned_to] = (counts[lead.assigned_to] ?? 0) + 1;
		}
	}
	return counts;
}

describeOnN8n2('a day of 60 leads with opening hours, shifts and capacities', () => {
	test('nothing passed on while closed, no lead to an advisor off shift or over a cap while another has room, every lead with an advisor', async () => {
		// The next weekday 08:00 in New York on the service's clock.
		let start = Math.ceil(now() / (15 * MINUTE)) * 15 * MINUTE;
		while (!(weekday(start) && localOf(start).minute === 8 * 60)) start += 15 * MINUTE;
		moveTo(start);
		const all = tables();
		const roundRobin = example('qualified-lead-round-robin.json');
		const reroute = example('reroute-uncontacted-leads.json');
		const triggerNode = reroute.nodes.find((node) => node.name === RECIPE_TRIGGER)!;
		const trigger = createPollHarness(triggerNode.parameters ?? {}, credentialsOf(ctx.sandbox), {
			nodeName: RECIPE_TRIGGER,
		});
		expect((await trigger.poll()).error).toBeUndefined();
		const run = async (workflow: WorkflowSpec, startNode: string, items: IDataObject[]) => {
			const before = loads();
			const result = await runWorkflow(workflow, credentialsOf(ctx.sandbox), {
				startNode,
				inputItems: items,
				mode: 'trigger',
				dataTables: all,
				nodeTypes: { [POLL_TRIGGER_NODE_TYPE]: new LeadConversationsPollTrigger() },
			});
			expect(result.error).toBeUndefined();
			return { result, before };
		};
		let passedOverFull = 0;
		const handOffTimes: number[] = [];
		/** Each announcement: when its wait ended, when the poll saw it. */
		const waitEnds: Array<[number, number]> = [];
		const assignments: Array<{ at: number; advisor: string; onShiftFrom?: unknown }> = [];
		/** Each new assignment: on shift if anyone eligible is, within the cap if anyone has room. */
		const check = (before: Record<string, number>, output: IDataObject[], skipped: string[]) => {
			for (const item of output) {
				const assignment = item.assignment as IDataObject;
				if (assignment.leftAsItWas !== false) continue;
				const advisor = String(assignment.advisor);
				const eligible = ROSTER.map((row) => row.user_id).filter((id) => !skipped.includes(id));
				const onShiftNow = eligible.filter((id) => onShift(id, now()));
				assignments.push({ at: now(), advisor, onShiftFrom: assignment.onShiftFrom });
				if (onShiftNow.length > 0) {
					expect({ advisor, onShift: onShift(advisor, now()) }).toEqual({ advisor, onShift: true });
					const roomy = onShiftNow.filter((id) => (before[id] ?? 0) < CAPACITY[id]);
					if (roomy.length > 0) expect(roomy).toContain(advisor);
					if (roomy.length < onShiftNow.length) passedOverFull += 1;
				} else {
					expect(assignment.onShiftFrom).toEqual(expect.any(String));
				}
			}
		};

		const arrivals = Array.from({ length: 60 }, (_, i) => start + i * 14 * MINUTE);
		const leads: Array<{ id: string; at: number }> = [];
		const nextMorning = start + 26 * 60 * MINUTE;
		let restarted = false;
		for (
			let at = start;
			at <= nextMorning;
			at += localOf(at).minute >= 22 * 60 || localOf(at).minute < 8 * 60 ? 30 * MINUTE : 7 * MINUTE
		) {
			moveTo(at);
			if (!restarted && localOf(at).minute >= 23 * 60) {
				trigger.restart();
				restarted = true;
			}
			// Advisors answer leads assigned a step or more ago: every third closed, every third kept.
			for (const [index, lead] of leads.entries()) {
				const stored = ctx.sandbox.control.state().leads.find((l) => l.id === lead.id)!;
				if (index % 3 === 2 || stored.status !== 'assigned' || now() - lead.at < 5 * MINUTE)
					continue;
				const conversation = ctx.sandbox.control
					.state()
					.conversations.find((c) => c.lead_id === lead.id)!;
				if (
					conversation.messages.some((m) => m.sent_by === 'human' && m.content === 'Advisor here')
				)
					continue;
				ctx.sandbox.control.addMessage(conversation.id, {
					sent_by: 'human',
					content: 'Advisor here',
				});
				if (index % 3 === 0) await assign(ctx.sandbox, lead.id, stored.assigned_to!, 'closed');
			}
			for (const arrival of arrivals.filter((a) => a <= at && a > at - 7 * MINUTE)) {
				const lead = ctx.sandbox.control.createChannelLead({
					channel: 'chat_app',
					vehicle_interest: 'Sedan',
				});
				ctx.sandbox.control.leadWrites(lead.id);
				const qualified = ctx.sandbox.control.qualifyLead(lead.id, 85);
				leads.push({ id: lead.id, at: arrival });
				const { result, before } = await run(roundRobin, 'Lead qualified (score 70+)', [
					{ event: 'lead.qualified', data: qualified as unknown as IDataObject },
				]);
				check(
					before,
					result.output('Assign the advisor').map((item) => item.json),
					[],
				);
			}
			const { items, error } = await trigger.poll();
			expect(error).toBeUndefined();
			if (!items) continue;
			handOffTimes.push(now());
			for (const item of items) waitEnds.push([Date.parse(String(item.wait_ended_at)), now()]);
			const { result, before } = await run(reroute, RECIPE_TRIGGER, items);
			for (const item of items) {
				const passed = result
					.output('Pass on to another advisor')
					.filter((out) => out.json.id === item.id);
				check(
					before,
					passed.map((out) => out.json),
					item.missed_by as string[],
				);
			}
		}

		expect(leads).toHaveLength(60);
		expect(handOffTimes.length).toBeGreaterThan(0);
		// Every wait ended in opening hours (a wait ending at 20:00 counted its last open minute),
		// and was handed on by the next poll: at most one step (7 minutes of the day) later.
		expect(waitEnds.filter(([end]) => !showroomOpen(end - 1))).toEqual([]);
		expect(waitEnds.filter(([end, seen]) => seen - end > 7 * MINUTE || seen < end)).toEqual([]);
		expect(handOffTimes.filter((at) => !showroomOpen(at - 7 * MINUTE))).toEqual([]);
		// Leads that came after 19:45 waited for the morning: handed on at 09:15 or later.
		expect(handOffTimes.some((at) => at > start + 24 * 60 * MINUTE)).toBe(true);
		const rows = all.rowsOf(HAND_OFFS_TABLE);
		const passedOn = rows.filter((row) => row.outcome === 'passed_on').map((row) => row.lead_id);
		expect(passedOn.length).toBeGreaterThan(5);
		// Through the restart too: each lead passed on once at most, never back.
		expect(new Set(passedOn).size).toBe(passedOn.length);
		const state = new Map(ctx.sandbox.control.state().leads.map((lead) => [lead.id, lead]));
		expect(leads.filter((lead) => !state.get(lead.id)!.assigned_to)).toEqual([]);
		// The day met each rule: leads before 09:00 went to whoever starts first, full advisors
		// on shift were passed over, and n8n restarted at night.
		expect(assignments.some((a) => a.onShiftFrom)).toBe(true);
		expect(passedOverFull).toBeGreaterThan(0);
		expect(restarted).toBe(true);
	});
});
