// How many leads in status `assigned` each advisor holds, for Capacity and for Least Loaded turns.
// Read from the service once per run of the node (GET /leads?status=assigned, every page, 100 a
// page: max(1, ⌈A/100⌉) requests for A such leads), then kept up to date with what this run
// changes, so the items of one run see each other's assignments. Two runs never share a count:
// the run's execution context is the key, and n8n makes a new one for every run of a node.
// Runs at the same time (two workers in queue mode) each count what the service held when they
// started, so together they may pass a cap (docs/lead-assignment.md).

import type { IDataObject } from 'n8n-workflow';

import type { ApiContext } from '../../shared/transport';
import { iterateListPages } from '../../shared/transport';

/** Leads in status `assigned` per advisor's user ID. */
export type AdvisorLoad = Map<string, number>;

const ASSIGNED = 'assigned';

const loadsOfRuns = new WeakMap<object, Promise<AdvisorLoad>>();

async function readLoad(this: ApiContext, itemIndex: number): Promise<AdvisorLoad> {
	const load: AdvisorLoad = new Map();
	const pages = iterateListPages<IDataObject>;
	const query = { status: ASSIGNED };
	const options = { returnAll: true, itemIndex };
	for await (const page of pages.call(this, '/leads', query, options)) {
		for (const lead of page) {
			const advisor = advisorOf(lead);
			if (advisor !== null) load.set(advisor, (load.get(advisor) ?? 0) + 1);
		}
	}
	return load;
}

/** The load of this run: read on the first call, the same (updated) count after that. */
export async function runLoad(this: ApiContext, itemIndex: number): Promise<AdvisorLoad> {
	let load = loadsOfRuns.get(this);
	if (!load) {
		load = readLoad.call(this, itemIndex);
		// A failed read is not kept: the next item of the run reads again.
		load.catch(() => loadsOfRuns.delete(this));
		loadsOfRuns.set(this, load);
	}
	return await load;
}

function advisorOf(lead: IDataObject): string | null {
	const advisor = lead.assigned_to;
	return typeof advisor === 'string' && advisor.trim() !== '' ? advisor : null;
}

/** The advisor a lead counts for: its advisor while its status is `assigned`. */
function countedFor(lead: IDataObject): string | null {
	return lead.status === ASSIGNED ? advisorOf(lead) : null;
}

/** Moves a lead's count from what it was counted for before a change to what it counts for now. */
export function recordChange(load: AdvisorLoad, before: IDataObject, after: IDataObject): void {
	const was = countedFor(before);
	const now = countedFor(after);
	if (was === now) return;
	if (was !== null) load.set(was, Math.max(0, (load.get(was) ?? 0) - 1));
	if (now !== null) load.set(now, (load.get(now) ?? 0) + 1);
}

export const loadOf = (load: AdvisorLoad, userId: string): number => load.get(userId) ?? 0;
