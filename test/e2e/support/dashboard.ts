import type { RunningSandbox } from '../../../sandbox';
import type { N8nPublicApi } from '../../../harness/real-n8n/n8n-server';
import { readTableRows } from '../../../harness/real-n8n/leadsMirror';
import { waitFor } from '../../../harness/real-n8n/processes';

// The speed-to-lead dashboard's scenario (examples/speed-to-lead-dashboard.json), two weeks of
// 40 assigned leads: when each advisor answers (seconds after their wait began, on the service's
// clock), who lets a lead wait and where it goes then. The hand-offs and escalations are written
// to "Lead hand-offs" as examples/reroute-uncontacted-leads.json writes them, and the leads are
// passed on in the service as it does; the first contacts come from the real event. The expected
// page figures are computed here from the plan alone.

const MINUTE = 60_000;

export const ADVISORS = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz', 'user_dario_sosa'];
const [ANA, BRUNO, CARLA, DARIO] = ADVISORS;

/** One advisor's wait: answered `after` seconds, or never (null); `escalated` when it ran out. */
interface Wait {
	advisor: string;
	after: number | null;
	escalated?: boolean;
}

/** A lead: its first advisor's wait, and the second's when the first let it wait. */
export interface LeadPlan {
	waits: Wait[];
	/** Let wait, and no one left to take it: a `not_passed_on` row. */
	nobodyLeft?: boolean;
}

const answered = (advisor: string, ...times: number[]): LeadPlan[] =>
	times.map((after) => ({ waits: [{ advisor, after }] }));

/** Last week's 16 leads. */
export const LAST_WEEK: LeadPlan[] = [
	...answered(ANA, 40, 150, 200, 500),
	...answered(BRUNO, 60, 100, 400, 800),
	...answered(CARLA, 20, 30, 320),
	...answered(DARIO, 299, 600, 610),
	{
		waits: [
			{ advisor: BRUNO, after: null },
			{ advisor: ANA, after: 90 },
		],
	},
	{
		waits: [
			{ advisor: CARLA, after: null },
			{ advisor: DARIO, after: null },
		],
	},
];

/** This week's 24: some within the first minute, on the 5 and 15 minute marks, late, never. */
export const THIS_WEEK: LeadPlan[] = [
	...answered(ANA, 25, 48, 130, 240, 610),
	...answered(BRUNO, 35, 290, 300, 301, 899, 900),
	...answered(CARLA, 55, 420, 720),
	...answered(DARIO, 59, 61, 180),
	{
		waits: [
			{ advisor: ANA, after: null },
			{ advisor: BRUNO, after: 75 },
		],
	},
	{
		waits: [
			{ advisor: CARLA, after: null },
			{ advisor: DARIO, after: 200 },
		],
	},
	{
		waits: [
			{ advisor: DARIO, after: null },
			{ advisor: CARLA, after: 45 },
		],
	},
	// Escalated, then reached 25 minutes into the second wait.
	{
		waits: [
			{ advisor: DARIO, after: null },
			{ advisor: ANA, after: 1500, escalated: true },
		],
	},
	{
		waits: [
			{ advisor: BRUNO, after: null },
			{ advisor: CARLA, after: null },
		],
	},
	{ waits: [{ advisor: CARLA, after: null }], nobodyLeft: true },
	// Still waiting when the page is read: not counted.
	{ waits: [{ advisor: ANA, after: null }] },
];

/** A wait the service started: which lead, which plan, when (epoch ms, service clock). */
export interface StartedWait {
	leadId: string;
	wait: Wait;
	startMs: number;
}

export interface HandOffRow {
	lead_id: string;
	lead_name: string;
	phone: string;
	outcome: 'passed_on' | 'escalated' | 'not_passed_on';
	advisor: string;
	missed_by: string;
	waiting_since: string;
}

/** What the page shows for one advisor in one week (data attributes of its row). */
export interface AdvisorFigures {
	week: string;
	advisor: string;
	received: number;
	median: number | null;
	p90: number | null;
	within5: number;
	within15: number;
	passedOn: number;
	escalated: number;
}

const DAY = 24 * 60 * MINUTE;

/** The ISO week (2026-W48) of an instant in a time zone: the week of its date's Thursday. */
export function isoWeek(ms: number, zone: string): string {
	const date = new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short' }).format(ms);
	const day = Date.parse(`${date}T00:00:00Z`);
	const thursday = new Date(day + (3 - ((new Date(day).getUTCDay() + 6) % 7)) * DAY);
	const year = thursday.getUTCFullYear();
	const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY));
	return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The first Wednesday at least a week after `ms` in `zone`: far from the weeks' edges. */
export function wednesdayAfter(ms: number, zone: string): number {
	const weekday = (t: number) =>
		new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short' }).format(t);
	let t = ms + 7 * DAY;
	while (weekday(t) !== 'Wed') t += DAY;
	return t;
}

/** The page's figures as they follow from the waits and hand-off rows, by the README's rules. */
export function expectedFigures(
	waits: StartedWait[],
	handOffs: HandOffRow[],
	zone: string,
): AdvisorFigures[] {
	const key = (week: string, advisor: string) => `${week} ${advisor}`;
	const groups = new Map<string, { leads: Set<string>; times: number[]; p: number; e: number }>();
	const of = (week: string, advisor: string) => {
		if (!groups.has(key(week, advisor)))
			groups.set(key(week, advisor), { leads: new Set(), times: [], p: 0, e: 0 });
		return groups.get(key(week, advisor))!;
	};
	for (const { leadId, wait, startMs } of waits) {
		if (wait.after === null) continue;
		const group = of(isoWeek(startMs, zone), wait.advisor);
		group.leads.add(leadId);
		group.times.push(wait.after);
	}
	for (const row of handOffs) {
		const group = of(
			isoWeek(Date.parse(row.waiting_since), zone),
			row.missed_by.split(', ').at(-1)!,
		);
		group.leads.add(row.lead_id);
		if (row.outcome === 'passed_on') group.p++;
		if (row.outcome === 'escalated') group.e++;
	}
	return [...groups.entries()].map(([name, g]) => {
		const [week, advisor] = name.split(' ');
		const times = [...g.times].sort((a, b) => a - b);
		const n = times.length;
		return {
			week,
			advisor,
			received: g.leads.size,
			median: n === 0 ? null : n % 2 ? times[(n - 1) / 2] : (times[n / 2 - 1] + times[n / 2]) / 2,
			// Nearest rank: the smallest time at or above which 10% of the times lie.
			p90: n === 0 ? null : times[Math.ceil(0.9 * n) - 1],
			within5: times.filter((t) => t <= 300).length,
			within15: times.filter((t) => t <= 900).length,
			passedOn: g.p,
			escalated: g.e,
		};
	});
}

/** The sandbox side of the scenario: leads, assignments, advisors' messages, on its clock. */
export class Dealership {
	constructor(
		private readonly sandbox: RunningSandbox,
		private readonly api: () => N8nPublicApi,
		private readonly handOffsTableId: string,
	) {}

	private get control() {
		return this.sandbox.control;
	}

	now(): number {
		return Date.parse(this.control.clock().now);
	}

	/** Moves the service's clock forward to `ms` (never back). */
	advanceTo(ms: number): void {
		const ahead = Math.ceil(ms - this.now());
		if (ahead > 0) this.control.advanceClock(ahead);
	}

	private async call(method: string, path: string, body: object): Promise<any> {
		const res = await fetch(`${this.sandbox.baseUrl}${path}`, {
			method,
			headers: { 'Content-Type': 'application/json', 'X-API-Key': this.sandbox.keys.full },
			body: JSON.stringify(body),
		});
		const text = await res.text();
		if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
		return JSON.parse(text);
	}

	newLead(name: string): { id: string; name: string; phone: string } {
		const lead = this.control.createChannelLead({
			name,
			channel: 'chat_app',
			status: 'in_conversation',
		});
		this.control.leadWrites(lead.id, { content: 'Hello, I would like a test drive' });
		return { id: lead.id, name: lead.name, phone: lead.phone };
	}

	/** Assigns the lead as an assignment workflow does; the wait starts at its updated_at. */
	async assign(leadId: string, wait: Wait): Promise<StartedWait> {
		const lead = await this.call('PATCH', `/leads/${leadId}`, {
			status: 'assigned',
			assigned_to: wait.advisor,
		});
		return { leadId, wait, startMs: Date.parse(lead.updated_at) };
	}

	/** Each advisor writes `after` seconds (and 300 ms) into their wait, in the order of the clock. */
	async answerInOrder(waits: StartedWait[]): Promise<void> {
		const target = (w: StartedWait) => w.startMs + w.wait.after! * 1000 + 300;
		const due = waits.filter((w) => w.wait.after !== null).sort((a, b) => target(a) - target(b));
		for (const w of due) {
			if (this.now() > target(w))
				throw new Error(`Too late to answer ${w.leadId} at ${w.wait.after} s`);
			this.advanceTo(target(w));
			const conversation = this.control
				.state()
				.conversations.find((c) => c.lead_id === w.leadId && c.status === 'open');
			if (!conversation) throw new Error(`No open conversation for ${w.leadId}`);
			await this.call('POST', `/conversations/${conversation.id}/messages`, {
				content: 'Hi, this is your advisor: when can I call you?',
			});
		}
	}

	async logHandOffs(rows: HandOffRow[]): Promise<void> {
		if (rows.length === 0) return;
		const res = await this.api().request('POST', `/data-tables/${this.handOffsTableId}/rows`, {
			data: rows,
		});
		if (res.status >= 300) throw new Error(`POST hand-off rows: ${res.status} ${res.text}`);
	}

	/** Waits until the trigger has polled `count` more times. */
	async nextPolls(count: number, timeoutMs = 60_000): Promise<void> {
		const polls = () =>
			this.control.requests().filter((r) => r.path === '/v1/leads' && r.query.status === 'assigned')
				.length;
		const before = polls();
		await waitFor(`${count} poll(s)`, () => (polls() >= before + count ? true : undefined), {
			timeoutMs,
			intervalMs: 200,
		});
	}
}

/**
 * One week's leads: assigned at `startMs`; first waits answered; at 16 minutes the ones let wait
 * passed on (or logged as nobody left); second waits answered; at 16 minutes into those the ones
 * let wait again escalated, then the late answers. Returns every wait and the rows written.
 */
export async function playWeek(
	shop: Dealership,
	plans: LeadPlan[],
	startMs: number,
	label: string,
): Promise<{ waits: StartedWait[]; handOffs: HandOffRow[] }> {
	shop.advanceTo(startMs);
	const leads = plans.map((_, i) => shop.newLead(`Dash ${label} Lead ${i + 1}`));
	const first: StartedWait[] = [];
	for (const [i, plan] of plans.entries())
		first.push(await shop.assign(leads[i].id, plan.waits[0]));
	await shop.nextPolls(1);
	await shop.answerInOrder(first);

	shop.advanceTo(Math.max(...first.map((w) => w.startMs)) + 16 * MINUTE);
	// As the reroute example logs them: the advisor who has the lead now, who let it wait, and
	// when the wait that ran out began.
	const row = (
		i: number,
		outcome: HandOffRow['outcome'],
		advisor: string,
		missedBy: string[],
		since: StartedWait,
	): HandOffRow => ({
		lead_id: leads[i].id,
		lead_name: leads[i].name,
		phone: leads[i].phone,
		outcome,
		advisor,
		missed_by: missedBy.join(', '),
		waiting_since: new Date(since.startMs).toISOString(),
	});
	const handOffs: HandOffRow[] = [];
	const second: StartedWait[] = [];
	const secondOf = new Map<StartedWait, number>();
	for (const [i, plan] of plans.entries()) {
		const [w0, w1] = plan.waits;
		if (w0.after !== null) continue;
		if (plan.nobodyLeft) handOffs.push(row(i, 'not_passed_on', w0.advisor, [w0.advisor], first[i]));
		if (!w1) continue;
		const started = await shop.assign(leads[i].id, w1);
		handOffs.push(row(i, 'passed_on', w1.advisor, [w0.advisor], first[i]));
		second.push(started);
		secondOf.set(started, i);
	}
	await shop.logHandOffs(handOffs);
	await shop.nextPolls(1);
	await shop.answerInOrder(second.filter((w) => !w.wait.escalated));

	const escalations = second.filter((w) => w.wait.after === null || w.wait.escalated);
	if (escalations.length > 0) {
		shop.advanceTo(Math.max(...escalations.map((w) => w.startMs)) + 16 * MINUTE);
		const rows = escalations.map((w) => {
			const i = secondOf.get(w)!;
			return row(i, 'escalated', w.wait.advisor, [plans[i].waits[0].advisor, w.wait.advisor], w);
		});
		await shop.logHandOffs(rows);
		handOffs.push(...rows);
		await shop.answerInOrder(escalations);
	}
	return { waits: [...first, ...second], handOffs };
}

/** Waits until "First contacts" holds `count` rows. */
export async function firstContactRows(api: N8nPublicApi, tableId: string, count: number) {
	return await waitFor(
		`${count} rows in First contacts`,
		async () => {
			const rows = await readTableRows(api, tableId);
			return rows.length >= count ? rows : undefined;
		},
		{ timeoutMs: 60_000, intervalMs: 500 },
	);
}
