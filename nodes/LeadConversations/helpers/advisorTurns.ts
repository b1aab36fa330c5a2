// Which advisor gets a lead, among those given: the roster's advisors eligible for that lead
// (eligibleAdvisors.ts), so an advisor passed over or not fitting neither takes nor spends a
// turn. Two ways, chosen in the node's Turns:
// - Take Turns: strict weighted rotation kept in this process's memory (nginx's smooth weighted
//   round robin). The pick is synchronous, so concurrent executions in one process never share a
//   turn; the pick of each lead is remembered, so a duplicate run gets the same advisor.
// - Spread by Lead ID: weighted rendezvous hashing of the lead ID over the roster. It depends only
//   on the lead and the roster, so every process, retry and duplicate run picks the same advisor,
//   without any shared store (queue-mode workers have none a community node may use).
// Nothing here is written to workflow static data: in queue mode a worker's save of static data
// overwrites the workflow's whole static data (see docs/lead-assignment.md).

import { createHash } from 'crypto';

import type { Advisor } from './roster';
import { availableAdvisors } from './roster';

/** How many leads' picks a process remembers, oldest forgotten first. */
export const REMEMBERED_PICKS = 10_000;

/** Per turn key (workflow + node): each advisor's running "current weight". */
const rotations = new Map<string, Map<string, number>>();
/** Per turn key and lead: the advisor picked for it in this process. */
const picks = new Map<string, string>();

const pickKey = (turnKey: string, leadId: string) => `${turnKey}\u0000${leadId}`;

function remember(key: string, userId: string): void {
	picks.delete(key);
	picks.set(key, userId);
	if (picks.size > REMEMBERED_PICKS) picks.delete(picks.keys().next().value as string);
}

/**
 * The next advisor in strict weighted rotation for `turnKey`, or the one this process already
 * picked for the lead while that advisor is still available. Each turn adds every available
 * advisor's weight to their current weight, takes the highest (the first in roster order on a
 * tie) and takes the total back from it: over any stretch each advisor gets their share within
 * one lead, and with equal weights it is plain round robin.
 */
export function pickByTurn(turnKey: string, leadId: string, roster: Advisor[]): string {
	const available = availableAdvisors(roster);
	const remembered = picks.get(pickKey(turnKey, leadId));
	if (remembered !== undefined && available.some((a) => a.userId === remembered)) {
		return remembered;
	}
	let current = rotations.get(turnKey);
	if (!current) {
		current = new Map();
		rotations.set(turnKey, current);
	}
	let total = 0;
	let chosen: Advisor | undefined;
	for (const advisor of available) {
		const next = (current.get(advisor.userId) ?? 0) + advisor.weight;
		current.set(advisor.userId, next);
		total += advisor.weight;
		if (chosen === undefined || next > (current.get(chosen.userId) as number)) chosen = advisor;
	}
	const userId = (chosen as Advisor).userId;
	current.set(userId, (current.get(userId) as number) - total);
	remember(pickKey(turnKey, leadId), userId);
	return userId;
}

/**
 * Gives back a turn whose lead was not assigned after all (the update failed), so the advisor
 * does not lose a turn to a lead they never got. Only the rotation's own last pick is undone.
 */
export function giveBackTurn(
	turnKey: string,
	leadId: string,
	userId: string,
	roster: Advisor[],
): void {
	const key = pickKey(turnKey, leadId);
	if (picks.get(key) !== userId) return;
	picks.delete(key);
	const current = rotations.get(turnKey);
	if (!current?.has(userId)) return;
	const available = availableAdvisors(roster);
	const total = available.reduce((sum, advisor) => sum + advisor.weight, 0);
	for (const advisor of available) {
		current.set(advisor.userId, (current.get(advisor.userId) ?? 0) - advisor.weight);
	}
	current.set(userId, (current.get(userId) as number) + total);
}

/** A number in (0, 1) fixed by the lead and the advisor: 52 bits of their SHA-256. */
function unitHash(leadId: string, userId: string): number {
	const digest = createHash('sha256').update(`${leadId}\u0000${userId}`).digest();
	const high = digest.readUInt32BE(0) >>> 12; // 20 bits
	const low = digest.readUInt32BE(4); // 32 bits
	return (high * 2 ** 32 + low + 0.5) / 2 ** 52;
}

/**
 * Weighted rendezvous hashing: each available advisor scores weight / −ln(hash(lead, advisor)),
 * the highest score wins. An advisor gets each lead with probability weight ÷ total weight;
 * adding or removing an advisor moves only the leads that advisor wins or held.
 */
export function pickByLead(leadId: string, roster: Advisor[]): string {
	let best: { userId: string; score: number } | undefined;
	for (const advisor of availableAdvisors(roster)) {
		const score = advisor.weight / -Math.log(unitHash(leadId, advisor.userId));
		if (best === undefined || score > best.score) best = { userId: advisor.userId, score };
	}
	return (best as { userId: string }).userId;
}
