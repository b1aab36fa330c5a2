// What point 11 reads from the service: shifts written around the service's clock, the leads in
// status `assigned` per advisor against their capacity, and how many runs were between reading a
// lead and writing it at once (the runs that can count the same load); closing leads as a person.

import type { RunningSandbox } from '../../../sandbox';

const MINUTE = 60_000;

/** Weekday and HH:MM of an instant in an IANA zone. */
function wallClock(atMs: number, timeZone: string): { day: string; time: string } {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		weekday: 'short',
		hour: '2-digit',
		minute: '2-digit',
		hourCycle: 'h23',
	}).formatToParts(new Date(atMs));
	const part = (type: string) => parts.find((p) => p.type === type)!.value;
	return { day: part('weekday'), time: `${part('hour')}:${part('minute')}` };
}

/**
 * Working hours in the opening-hours notation that run from `fromMinutes` to `toMinutes` around
 * `atMs` in `timeZone` (less than a day; an end before the start runs past midnight), e.g.
 * `Sat 20:30-23:30`. The service's clock moves only forward and the trigger refuses events stamped
 * more than 5 minutes ahead of n8n's, so the shifts are placed around the clock, not the reverse.
 */
export function shiftAround(
	atMs: number,
	timeZone: string,
	fromMinutes: number,
	toMinutes: number,
): string {
	const startMs = Math.floor((atMs + fromMinutes * MINUTE) / MINUTE) * MINUTE;
	const start = wallClock(startMs, timeZone);
	const end = wallClock(startMs + (toMinutes - fromMinutes) * MINUTE, timeZone);
	return `${start.day} ${start.time}-${end.time}`;
}

/** Leads in status `assigned` per advisor, whoever assigned them (what the node counts). */
export function assignedPerAdvisor(sandbox: RunningSandbox, advisors: string[]): number[] {
	const counts = new Map(advisors.map((advisor) => [advisor, 0]));
	for (const lead of sandbox.control.state().leads) {
		if (lead.status !== 'assigned' || !counts.has(lead.assigned_to ?? '')) continue;
		counts.set(lead.assigned_to!, counts.get(lead.assigned_to!)! + 1);
	}
	return advisors.map((advisor) => counts.get(advisor)!);
}

/** The most intervals open at one instant (both ends included). */
export function mostAtOnce(intervals: Array<[number, number]>): number {
	const edges = intervals.flatMap(([from, to]) => [
		{ at: from, step: 1 },
		{ at: to, step: -1 },
	]);
	// At the same millisecond, starts before ends: touching intervals count as overlapping.
	edges.sort((a, b) => a.at - b.at || b.step - a.step);
	let open = 0;
	let most = 0;
	for (const edge of edges) {
		open += edge.step;
		most = Math.max(most, open);
	}
	return most;
}

/**
 * Per lead, from the service's request log: Assign's read (the last GET /v1/leads/{id} before
 * the PATCH; the trigger may read the lead too, earlier) to its first PATCH, which encloses the
 * run's count (GET /leads?status=assigned). Leads without both are left out.
 */
export function readToWriteWindows(
	sandbox: RunningSandbox,
	leadIds: string[],
): Array<[number, number]> {
	const requests = sandbox.control.requests();
	const windows: Array<[number, number]> = [];
	for (const id of leadIds) {
		const path = `/v1/leads/${id}`;
		const write = requests.find((r) => r.method === 'PATCH' && r.path === path);
		if (!write) continue;
		const reads = requests.filter((r) => r.method === 'GET' && r.path === path && r.at <= write.at);
		if (reads.length > 0) windows.push([reads[reads.length - 1].at, write.at]);
	}
	return windows;
}

/**
 * The most each advisor held over their capacity at any sample, and the most any held over it
 * while another advisor on shift had room (a lead that had a place under a cap and went over).
 */
export class OverCapWatch {
	readonly mostOver: number[];
	overWithRoom = 0;

	constructor(
		private readonly sandbox: RunningSandbox,
		private readonly ids: string[],
		private readonly advisors: Array<{ capacity: number; onShift: boolean }>,
	) {
		this.mostOver = advisors.map(() => 0);
	}

	sample(): void {
		const held = assignedPerAdvisor(this.sandbox, this.ids);
		const caps = this.advisors.map((a) => a.capacity);
		held.forEach((count, i) => {
			this.mostOver[i] = Math.max(this.mostOver[i], count - caps[i]);
			const room = this.advisors.some((a, j) => j !== i && a.onShift && held[j] < caps[j]);
			if (count > caps[i] && room) this.overWithRoom = Math.max(this.overWithRoom, count - caps[i]);
		});
	}
}

/** A person closes the leads: out of status `assigned`, so their advisors have room again. */
export async function closeLeads(sandbox: RunningSandbox, leadIds: string[]): Promise<void> {
	for (const id of leadIds) {
		const res = await fetch(`${sandbox.baseUrl}/leads/${id}`, {
			method: 'PATCH',
			headers: { 'Content-Type': 'application/json', 'X-API-Key': sandbox.keys.full },
			body: JSON.stringify({ status: 'closed' }),
		});
		if (res.status !== 200)
			throw new Error(`PATCH /leads/${id}: ${res.status} ${await res.text()}`);
	}
}
