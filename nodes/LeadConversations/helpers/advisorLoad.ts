// How many leads in status `assigned` each advisor holds, for Capacity and for Least Loaded turns.
// Read from the service once per run of the node (GET /leads?status=assigned, every page, 100 a
// page: max(1, ⌈A/100⌉) requests for A such leads), then kept up to date with what this process
// changes since, so the items of one run, and runs at the same time in this process (two workflows,
// two deliveries), see each other's assignments:
// - `oneAssignmentAtATime` lets one assignment that counts at a time per account in this process
//   (read the lead, choose, PATCH), so no count is read while a write of this process is on its way;
// - every change of an advisor is noted in the account's journal, and a run's count catches up
//   with the journal before each use.
// Two processes never share a count: workers in queue mode each count what the service held when
// they read it, so together they may pass a cap (docs/lead-assignment.md).

import type { IDataObject } from 'n8n-workflow';

import type { ApiContext } from '../../shared/transport';
import { accountOf, iterateListPages } from '../../shared/transport';

/** Leads in status `assigned` per advisor's user ID. */
export type AdvisorLoad = Map<string, number>;

/** A change of the advisor a lead counts for, made by this process. */
interface Change {
	was: string | null;
	now: string | null;
}

/** What this process knows of one account: its assignment queue and its recent changes. */
interface Account {
	/** Settles when the assignment in progress (and every one queued before it) is done. */
	queue: Promise<void>;
	/** The changes numbered `first`, `first + 1`, …; the oldest are forgotten past JOURNAL_LENGTH. */
	journal: Change[];
	first: number;
}

/** A run's count and the journal number it has caught up to. */
interface RunCount {
	load: AdvisorLoad;
	next: number;
}

/** How many changes an account's journal keeps at least; a run further behind reads its count again. */
export const JOURNAL_LENGTH = 10_000;

const ASSIGNED = 'assigned';

const accounts = new Map<string, Account>();
const countsOfRuns = new WeakMap<object, RunCount>();

function accountState(name: string): Account {
	let account = accounts.get(name);
	if (!account) {
		account = { queue: Promise.resolve(), journal: [], first: 0 };
		accounts.set(name, account);
	}
	return account;
}

const journalEnd = (account: Account) => account.first + account.journal.length;

/**
 * Runs `work` when no other assignment that counts is in progress for the credential's account in
 * this process, in the order they asked. A failed assignment lets the next one go all the same.
 */
export async function oneAssignmentAtATime<T>(
	context: ApiContext,
	itemIndex: number,
	work: () => Promise<T>,
): Promise<T> {
	const account = accountState(await accountOf.call(context, itemIndex));
	const before = account.queue;
	let done!: () => void;
	account.queue = new Promise<void>((resolve) => (done = resolve));
	try {
		await before;
		return await work();
	} finally {
		done();
	}
}

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

function apply(load: AdvisorLoad, { was, now }: Change): void {
	if (was !== null) load.set(was, Math.max(0, (load.get(was) ?? 0) - 1));
	if (now !== null) load.set(now, (load.get(now) ?? 0) + 1);
}

/**
 * The load as this run counts it: read on its first call, then moved by every change this process
 * made since. Call it only inside `oneAssignmentAtATime`, so no write of this process is under way.
 */
export async function runLoad(this: ApiContext, itemIndex: number): Promise<AdvisorLoad> {
	const account = accountState(await accountOf.call(this, itemIndex));
	let count = countsOfRuns.get(this);
	if (!count || count.next < account.first) {
		// A failed read is not kept: the next item of the run reads again.
		count = { load: await readLoad.call(this, itemIndex), next: journalEnd(account) };
		countsOfRuns.set(this, count);
	}
	for (; count.next < journalEnd(account); count.next++) {
		apply(count.load, account.journal[count.next - account.first]);
	}
	return count.load;
}

function advisorOf(lead: IDataObject): string | null {
	const advisor = lead.assigned_to;
	return typeof advisor === 'string' && advisor.trim() !== '' ? advisor : null;
}

/** The advisor a lead counts for: its advisor while its status is `assigned`. */
function countedFor(lead: IDataObject): string | null {
	return lead.status === ASSIGNED ? advisorOf(lead) : null;
}

/**
 * Notes a change this process made to a lead (before and after the PATCH, so the status the answer
 * shows decides) in the account's journal, and returns the run's count with it.
 */
export async function recordChange(
	this: ApiContext,
	itemIndex: number,
	before: IDataObject,
	after: IDataObject,
): Promise<AdvisorLoad> {
	const was = countedFor(before);
	const now = countedFor(after);
	if (was !== now) {
		const account = accountState(await accountOf.call(this, itemIndex));
		account.journal.push({ was, now });
		// Forgotten a half at a time, so a change costs no copy of the whole journal.
		if (account.journal.length >= 2 * JOURNAL_LENGTH) {
			account.journal.splice(0, JOURNAL_LENGTH);
			account.first += JOURNAL_LENGTH;
		}
	}
	return await runLoad.call(this, itemIndex);
}

export const loadOf = (load: AdvisorLoad, userId: string): number => load.get(userId) ?? 0;
