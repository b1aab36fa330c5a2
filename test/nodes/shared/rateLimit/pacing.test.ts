// Pacing one worker's requests: the wait before a request, and what each answer teaches.

import { pacingWaitMs, settleSlot, takeSlot } from '../../../../nodes/shared/transport/pacing';
import {
	pacingStateFor,
	type PacingState,
	type Slot,
} from '../../../../nodes/shared/transport/pacingState';
import { NOTHING_KNOWN, NOW, inSeconds } from './fixtures';

describe('pacing before a request', () => {
	test('waits for the reset when the window is used up', () => {
		const state: PacingState = { ...NOTHING_KNOWN, remaining: 0, resetAtMs: NOW + 3000 };
		expect(pacingWaitMs(state, NOW)).toBe(3050);
		expect(pacingWaitMs(state, NOW + 2990)).toBe(60);
		expect(pacingWaitMs(state, NOW + 4000)).toBe(0);
	});
	test('does not wait while requests are left or nothing is known', () => {
		expect(pacingWaitMs(NOTHING_KNOWN, NOW)).toBe(0);
		expect(pacingWaitMs({ ...NOTHING_KNOWN, remaining: 3, resetAtMs: NOW + 5000 }, NOW)).toBe(0);
	});
	test('state is shared per key and service, and separate otherwise', () => {
		const a = pacingStateFor('https://a.example/v1#k1');
		expect(a).toEqual(NOTHING_KNOWN);
		a.remaining = 0;
		expect(pacingStateFor('https://a.example/v1#k1')).toBe(a);
		expect(pacingStateFor('https://a.example/v1#k2')).not.toBe(a);
	});
});

/**
 * One moment in the life of a key's window. `take`: that many requests take a slot, numbered 1, 2…
 * in the case; `answer`: request `of` (by default the oldest unanswered) is answered with
 * X-RateLimit-Remaining and X-RateLimit-Reset (seconds after NOW, as Unix seconds; undefined
 * leaves the header out); `at`: the clock moves to NOW + ms.
 */
type Step =
	| { take: number }
	| { answer: [remaining: number | undefined, resetInSeconds: number | undefined]; of?: number }
	| { at: number };

interface Case {
	name: string;
	before?: Partial<PacingState>;
	steps: Step[];
	/** What is known after the steps, and the wait a request would have then. */
	after: Pick<PacingState, 'remaining' | 'resetAtMs' | 'inFlight'>;
	waitMs: number;
}

function play(before: Partial<PacingState>, steps: Step[]) {
	// A worker that has had answers before: its first request is behind it.
	const state: PacingState = { ...NOTHING_KNOWN, heardBack: true, ...before };
	const unanswered: Slot[] = [];
	let now = NOW;
	for (const step of steps) {
		if ('at' in step) now = NOW + step.at;
		else if ('take' in step)
			for (let i = 0; i < step.take; i++) unanswered.push(takeSlot(state, now));
		else {
			const slot = unanswered.find((taken) => taken.request === step.of) ?? unanswered[0];
			unanswered.splice(unanswered.indexOf(slot), 1);
			const [remaining, reset] = step.answer;
			const headers: Record<string, string> = {};
			if (remaining !== undefined) headers['x-ratelimit-remaining'] = String(remaining);
			if (reset !== undefined) headers['x-ratelimit-reset'] = inSeconds(reset);
			settleSlot(state, slot, { headers }, now);
		}
	}
	const { remaining, resetAtMs, inFlight } = state;
	return { known: { remaining, resetAtMs, inFlight }, waitMs: pacingWaitMs(state, now) };
}

const WINDOW = { remaining: 10, resetAtMs: NOW + 1000 };

describe('taking slots and learning from answers', () => {
	test.each<Case>([
		{
			name: 'the first request, nothing known: it is sent',
			steps: [{ take: 1 }],
			after: { inFlight: 1 },
			waitMs: 0,
		},
		{
			name: 'three first requests in parallel: the first answer counts the two still on their way',
			steps: [{ take: 3 }, { answer: [29, 1] }],
			after: { remaining: 27, resetAtMs: NOW + 1000, inFlight: 2 },
			waitMs: 0,
		},
		{
			name: 'the other two answers then change nothing: they report what was already counted',
			steps: [{ take: 3 }, { answer: [29, 1] }, { answer: [28, 1] }, { answer: [27, 1] }],
			after: { remaining: 27, resetAtMs: NOW + 1000, inFlight: 0 },
			waitMs: 0,
		},
		{
			name: 'parallel requests each take a slot before any answer; the last 8 (twice the 4 at once) go one at a time',
			before: WINDOW,
			steps: [{ take: 4 }],
			after: { remaining: 6, resetAtMs: NOW + 1000, inFlight: 4 },
			waitMs: 20,
		},
		{
			name: 'parallel requests that use up the window make the next one wait for the reset',
			before: WINDOW,
			steps: [{ take: 10 }],
			after: { remaining: 0, resetAtMs: NOW + 1000, inFlight: 10 },
			waitMs: 1050,
		},
		{
			name: 'answers arriving out of order: the lowest count of the window wins',
			before: WINDOW,
			steps: [
				{ take: 3 },
				{ answer: [7, 1], of: 3 },
				{ answer: [9, 1], of: 1 },
				{ answer: [8, 1], of: 2 },
			],
			after: { remaining: 7, resetAtMs: NOW + 1000, inFlight: 0 },
			waitMs: 0,
		},
		{
			name: 'a late answer reporting more than is left does not give slots back',
			before: { remaining: 1, resetAtMs: NOW + 1000 },
			steps: [{ take: 1 }, { answer: [5, 1] }],
			after: { remaining: 0, resetAtMs: NOW + 1000, inFlight: 0 },
			waitMs: 1050,
		},
		{
			name: 'another client used some of the window: the lower count is taken',
			before: WINDOW,
			steps: [{ take: 1 }, { answer: [2, 1] }],
			after: { remaining: 2, resetAtMs: NOW + 1000, inFlight: 0 },
			waitMs: 0,
		},
		{
			name: 'rollover: once the reset is past nothing is known, and the request is sent',
			before: { remaining: 0, resetAtMs: NOW + 1000 },
			steps: [{ at: 1050 }, { take: 2 }],
			after: { inFlight: 2 },
			waitMs: 0,
		},
		{
			name: 'rollover: the first answer of the new window, less the requests on their way',
			before: { remaining: 0, resetAtMs: NOW + 1000 },
			steps: [{ at: 1050 }, { take: 3 }, { answer: [29, 2] }],
			after: { remaining: 27, resetAtMs: NOW + 2000, inFlight: 2 },
			waitMs: 0,
		},
		{
			name: 'a later reset opens a new window even before the old one is over by this clock',
			before: { remaining: 0, resetAtMs: NOW + 1000 },
			steps: [{ take: 2 }, { answer: [30, 2] }],
			after: { remaining: 29, resetAtMs: NOW + 2000, inFlight: 1 },
			waitMs: 0,
		},
		{
			name: 'a stale answer from the previous window changes nothing once the new one is known',
			before: { remaining: 0, resetAtMs: NOW + 1000 },
			steps: [{ take: 2 }, { answer: [30, 2], of: 2 }, { answer: [0, 1], of: 1 }],
			after: { remaining: 29, resetAtMs: NOW + 2000, inFlight: 0 },
			waitMs: 0,
		},
		{
			name: 'an older reset on the answer to a later request: the service changed its window',
			before: { remaining: 0, resetAtMs: NOW + 86_400_000 },
			steps: [{ take: 1 }, { answer: [999, 60] }],
			after: { remaining: 999, resetAtMs: NOW + 60_000, inFlight: 0 },
			waitMs: 0,
		},
		{
			name: 'an answer about a window already over changes nothing',
			before: { remaining: 5, resetAtMs: NOW + 2000 },
			steps: [{ take: 1 }, { at: 1200 }, { answer: [0, 1] }],
			after: { remaining: 4, resetAtMs: NOW + 2000, inFlight: 0 },
			waitMs: 0,
		},
		{
			name: 'an answer without the headers only frees the slot',
			before: WINDOW,
			steps: [{ take: 1 }, { answer: [undefined, undefined] }],
			after: { remaining: 9, resetAtMs: NOW + 1000, inFlight: 0 },
			waitMs: 0,
		},
		{
			name: 'an answer with a count but no reset gives nothing to wait for, so it is not kept',
			steps: [{ take: 1 }, { answer: [0, undefined] }],
			after: { inFlight: 0 },
			waitMs: 0,
		},
		{
			name: 'a request sent beyond the wait budget (window used up) still counts as on its way',
			before: { remaining: 0, resetAtMs: NOW + 1000 },
			steps: [{ take: 1 }],
			after: { remaining: 0, resetAtMs: NOW + 1000, inFlight: 1 },
			waitMs: 1050,
		},
	])('$name', ({ before = {}, steps, after, waitMs }) => {
		const played = play(before, steps);
		expect(played.known).toEqual(after);
		expect(played.waitMs).toBe(waitMs);
	});

	test('a reset sent as seconds from now, a little later on a later answer, is the same window', () => {
		const state: PacingState = { ...NOTHING_KNOWN };
		const first = takeSlot(state, NOW);
		const second = takeSlot(state, NOW);
		const headers = (remaining: string) => ({
			'x-ratelimit-remaining': remaining,
			'x-ratelimit-reset': '30',
		});
		settleSlot(state, second, { headers: headers('8') }, NOW + 100);
		settleSlot(state, first, { headers: headers('9') }, NOW + 600);
		expect(state).toMatchObject({ remaining: 7, resetAtMs: NOW + 30_100, inFlight: 0 });
	});
});
