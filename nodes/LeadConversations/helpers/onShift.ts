// Which of the advisors eligible for a lead are on shift at a moment of the service's clock. An
// advisor without Working Hours is always on shift. When no one is, the lead waits for no one: it
// goes to those whose shift starts first (the turns choose among them), and says from when.

import { isOpenAt, nextOpeningAt } from '../../shared/openingHours';
import type { Advisor } from './roster';

export interface OnShift {
	advisors: Advisor[];
	/** When no one was on shift at `atMs`: the instant the advisors given start. */
	fromMs?: number;
}

export function onShift(eligible: Advisor[], atMs: number): OnShift {
	const now = eligible.filter((advisor) => !advisor.schedule || isOpenAt(advisor.schedule, atMs));
	if (now.length > 0) return { advisors: now };
	let fromMs: number | undefined;
	let first: Advisor[] = [];
	for (const advisor of eligible) {
		const startMs = nextOpeningAt(advisor.schedule!, atMs);
		if (startMs === undefined || (fromMs !== undefined && startMs > fromMs)) continue;
		if (fromMs === undefined || startMs < fromMs) first = [];
		fromMs = startMs;
		first.push(advisor);
	}
	return { advisors: first, fromMs };
}
