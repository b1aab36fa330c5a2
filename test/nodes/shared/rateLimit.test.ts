import {
	pacingStateFor,
	pacingWaitMs,
	settleSlot,
	takeSlot,
	type PacingState,
	type Slot,
} from '../../../nodes/shared/transport/pacing';
import {
	MAX_RATE_LIMIT_WAIT_MS,
	parseResetHeader,
	parseRetryAfter,
	WaitBudget,
	waitAfterRateLimit,
} from '../../../nodes/shared/transport/rateLimit';
import { seededRandom } from '../../../harness/support/random';

const NOW = Date.UTC(2025, 4, 1, 12, 0, 0);
const inSeconds = (seconds: number) => String(Math.floor(NOW / 1000) + seconds);

describe('reading X-RateLimit-Reset', () => {
	test.each([
		['Unix seconds, as specified', inSeconds(30), NOW + 30_000],
		['milliseconds', String(NOW + 5_000), NOW + 5_000],
		['seconds from now', '12', NOW + 12_000],
		['missing', undefined, undefined],
		['garbage', 'soon', undefined],
	])('%s', (_case, value, expected) => {
		expect(parseResetHeader(value, NOW)).toBe(expected);
	});
});

describe('reading Retry-After', () => {
	test('delta seconds', () => expect(parseRetryAfter('2', NOW)).toBe(2000));
	test('fractional seconds', () => expect(parseRetryAfter('0.5', NOW)).toBe(500));
	test('HTTP date', () =>
		expect(parseRetryAfter(new Date(NOW + 7000).toUTCString(), NOW)).toBe(7000));
	test('garbage', () => expect(parseRetryAfter('later', NOW)).toBeUndefined());
});

const NOTHING_KNOWN: PacingState = { inFlight: 0, taken: 0, windowFrom: 0 };

/** Rate-limit headers of an answer: requests left, and a reset that many seconds after NOW. */
const reportOf = (remaining: number, resetInSeconds: number) => ({
	'x-ratelimit-remaining': String(remaining),
	'x-ratelimit-reset': inSeconds(resetInSeconds),
});

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
	const state: PacingState = { ...NOTHING_KNOWN, ...before };
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
			name: 'parallel requests each take a slot before any answer',
			before: WINDOW,
			steps: [{ take: 4 }],
			after: { remaining: 6, resetAtMs: NOW + 1000, inFlight: 4 },
			waitMs: 0,
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

/**
 * Parallel clients against a service with clock-aligned windows that counts every request when it
 * arrives, 429s too, like the sandbox. Clients are spread over `workers`, one pacing state each
 * (the processes of n8n's queue mode: they share nothing but the service's answers). Latencies
 * both ways are random, so requests arrive in another order than they were sent and answers in
 * another order again.
 */
function simulate(options: {
	clients: number;
	requestsEach: number;
	limit: number;
	latencyMs: number;
	seed: number;
	workers?: number;
	windowMs?: number;
	/** Another client that sends this many requests at once as each window opens. */
	burstPerWindow?: number;
	/** When our clients start, ms after NOW (a window opens at NOW). */
	startMs?: number;
}) {
	const { clients, requestsEach, limit, workers = 1, windowMs = 1000 } = options;
	const { burstPerWindow = 0, startMs = 0 } = options;
	const random = seededRandom(options.seed);
	const latency = () => 1 + random() * options.latencyMs;
	const states: PacingState[] = Array.from({ length: workers }, () => ({ ...NOTHING_KNOWN }));
	const counted = new Map<number, number>();
	const refusedIn = new Map<number, number>();
	let ourRefused = 0;
	let running = clients;
	const count = (arrivedAt: number) => {
		const windowStart = Math.floor(arrivedAt / windowMs) * windowMs;
		const counted_ = (counted.get(windowStart) ?? 0) + 1;
		counted.set(windowStart, counted_);
		const limited = counted_ > limit;
		if (limited) refusedIn.set(windowStart, (refusedIn.get(windowStart) ?? 0) + 1);
		return { windowStart, count: counted_, limited };
	};
	const events: Array<{ at: number; run: (at: number) => void }> = [];
	let refused = 0;
	let finishedAt = NOW;

	const client = (state: PacingState, left: number) => (now: number) => {
		if (left === 0) {
			finishedAt = Math.max(finishedAt, now);
			running--;
			return;
		}
		const wait = pacingWaitMs(state, now);
		if (wait > 0) {
			events.push({ at: now + wait, run: client(state, left) });
			return;
		}
		const slot = takeSlot(state, now);
		events.push({
			at: now + latency(),
			run: (arrivedAt) => {
				const { windowStart, count: seen, limited } = count(arrivedAt);
				if (limited) {
					refused++;
					ourRefused++;
				}
				const count_ = seen;
				const headers = {
					'x-ratelimit-remaining': String(Math.max(0, limit - count_)),
					'x-ratelimit-reset': String(Math.ceil((windowStart + windowMs) / 1000)),
				};
				const status = limited ? 429 : 200;
				events.push({
					at: arrivedAt + latency(),
					run: (answeredAt) => {
						settleSlot(state, slot, { headers, status }, answeredAt);
						if (!limited) {
							client(state, left - 1)(answeredAt);
							return;
						}
						// After a 429: wait for the reset, as the transport does.
						const resetAt = Math.ceil((windowStart + windowMs) / 1000) * 1000;
						events.push({ at: resetAt + 50, run: client(state, left) });
					},
				});
			},
		});
	};

	for (let i = 0; i < clients; i++) {
		const at = NOW + startMs + random() * 20;
		events.push({ at, run: client(states[i % workers], requestsEach) });
	}
	const burst = (windowStart: number) => (now: number) => {
		if (running === 0) return;
		for (let i = 0; i < burstPerWindow; i++) {
			events.push({ at: now + latency() * 2, run: (arrivedAt) => void count(arrivedAt) });
		}
		events.push({ at: windowStart + windowMs + 1, run: burst(windowStart + windowMs) });
	};
	if (burstPerWindow > 0) events.push({ at: NOW + 1, run: burst(NOW) });
	while (events.length > 0) {
		events.sort((a, b) => a.at - b.at);
		const next = events.shift()!;
		next.run(next.at);
	}
	return {
		refused,
		ourRefused,
		mostRefusedInOneWindow: Math.max(0, ...refusedIn.values()),
		windows: counted.size,
		seconds: (finishedAt - NOW) / 1000,
		states,
	};
}

describe('parallel clients on one key never overrun the window', () => {
	test.each([
		{ clients: 3, requestsEach: 30, limit: 30, latencyMs: 60 },
		{ clients: 3, requestsEach: 100, limit: 10, latencyMs: 60 },
		{ clients: 8, requestsEach: 50, limit: 25, latencyMs: 60 },
		{ clients: 10, requestsEach: 40, limit: 10, latencyMs: 60 },
		{ clients: 6, requestsEach: 40, limit: 20, latencyMs: 400 },
	])(
		'$clients clients × $requestsEach requests against $limit per window, latency up to $latencyMs ms each way: no 429, few windows wasted',
		(scenario) => {
			for (const seed of [1, 2, 3, 4, 5]) {
				const result = simulate({ ...scenario, seed });
				const { clients, requestsEach, limit } = scenario;
				expect(result.refused).toBe(0);
				// Counting the requests still on their way is cautious, but not wasteful.
				const needed = Math.ceil((clients * requestsEach) / limit);
				expect(result.windows).toBeLessThanOrEqual(Math.ceil(needed * 1.5) + 1);
				expect(result.states[0].inFlight).toBe(0);
				// Alone on the key: nothing is left to others.
				expect(result.states[0].reserve ?? 0).toBe(0);
			}
		},
	);
});

describe('workers that share nothing but the service spend one key together', () => {
	// Return All runs: one request at a time each, two per worker, as in n8n's queue mode.
	test.each([
		{ workers: 2, clients: 4, requestsEach: 10, limit: 20, windowMs: 2000, latencyMs: 15 },
		{ workers: 2, clients: 4, requestsEach: 25, limit: 20, windowMs: 2000, latencyMs: 40 },
		{ workers: 3, clients: 6, requestsEach: 20, limit: 30, windowMs: 2000, latencyMs: 20 },
		{ workers: 4, clients: 8, requestsEach: 20, limit: 40, windowMs: 1000, latencyMs: 10 },
	])(
		'$workers workers, $clients runs × $requestsEach pages, $limit per $windowMs ms: at most one 429 per window, within 1.25 × the ideal time',
		(scenario) => {
			const { clients, requestsEach, limit, windowMs } = scenario;
			const ideal = ((clients * requestsEach) / limit) * windowMs;
			for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
				const result = simulate({ ...scenario, seed });
				expect(result.mostRefusedInOneWindow).toBeLessThanOrEqual(1);
				// Runs start at a random moment of a window, as in life: the first one is partial.
				expect(result.seconds * 1000).toBeLessThanOrEqual(1.25 * ideal);
				for (const state of result.states) expect(state.inFlight).toBe(0);
			}
		},
	);

	test.each([0, 2, 5, 30, 200])(
		'alone with another client that spends 40 of every 50 requests as each window opens, starting %i ms into a window: its share of the windows, few 429s',
		(startMs) => {
			const pages = 50;
			// The other client leaves 10 of each 2 s window: the ideal is pages ÷ 10 windows.
			const ideal = (pages / 10) * 2000;
			for (const seed of [1, 2, 3, 4, 5]) {
				const result = simulate({
					clients: 1,
					requestsEach: pages,
					limit: 50,
					windowMs: 2000,
					latencyMs: 15,
					burstPerWindow: 40,
					startMs,
					seed,
				});
				expect(result.ourRefused).toBeLessThanOrEqual(Math.ceil(ideal / 2000));
				// Starting inside the burst, the client sees others spend 20 or more between two of
				// its answers and leaves them that many until windows pass without them: the price
				// of caution, measured at up to 1.42 × here. Starting after it costs nothing.
				const bound = startMs < 30 ? 1.5 : 1.25;
				expect(result.seconds * 1000).toBeLessThanOrEqual(bound * ideal + startMs);
			}
		},
	);

	test('a worker learns from a lower count than its own requests explain, and leaves others a reserve', () => {
		const state: PacingState = { ...NOTHING_KNOWN, remaining: 10, resetAtMs: NOW + 1000 };
		const slot = takeSlot(state, NOW);
		// Its own request leaves 9; the service says 6: others spent 3 meanwhile.
		settleSlot(state, slot, { headers: reportOf(6, 1) }, NOW);
		expect(state.remaining).toBe(6);
		expect(state.reserve).toBe(3);
		// It stops when only the reserve is left, instead of racing the others for it.
		for (let i = 0; i < 3; i++) (expect(pacingWaitMs(state, NOW)).toBe(0), takeSlot(state, NOW));
		expect(state.remaining).toBe(3);
		expect(pacingWaitMs(state, NOW)).toBe(1050);
	});

	test('a 429 where room was known is a sign of others; one where none was is not', () => {
		const state: PacingState = { ...NOTHING_KNOWN, remaining: 3, resetAtMs: NOW + 1000 };
		const surprised = takeSlot(state, NOW);
		expect(surprised.roomLeft).toBe(2);
		settleSlot(state, surprised, { headers: reportOf(0, 1), status: 429 }, NOW);
		expect(state.reserve).toBeGreaterThanOrEqual(3);

		const alone: PacingState = { ...NOTHING_KNOWN, remaining: 0, resetAtMs: NOW + 1000 };
		// Sent beyond the wait budget, with the window known to be used up: a 429 was expected.
		const expected = takeSlot(alone, NOW);
		settleSlot(alone, expected, { headers: reportOf(0, 1), status: 429 }, NOW);
		expect(alone.reserve ?? 0).toBe(0);
	});

	test('the reserve is given back, halving with each window in which nobody else spent', () => {
		const state: PacingState = { ...NOTHING_KNOWN, reserve: 8, capacity: 20 };
		let now = NOW;
		const reserves: number[] = [];
		for (let window = 1; window <= 5; window++) {
			// Two requests in the window, the counts exactly what this worker spent.
			const first = takeSlot(state, now);
			settleSlot(state, first, { headers: reportOf(19, window) }, now);
			const second = takeSlot(state, now);
			settleSlot(state, second, { headers: reportOf(18, window) }, now);
			reserves.push(state.reserve ?? 0);
			now = NOW + window * 1000 + 50;
		}
		// Each window that becomes known halves it: nothing showed others in the one before.
		expect(reserves).toEqual([4, 2, 1, 0, 0]);
	});

	test('the reserve never exceeds half of what a window allows', () => {
		const state: PacingState = { ...NOTHING_KNOWN };
		const first = takeSlot(state, NOW);
		settleSlot(state, first, { headers: reportOf(19, 1) }, NOW);
		const second = takeSlot(state, NOW);
		// Others spent 17 at once: this worker still takes up to half of each window.
		settleSlot(state, second, { headers: reportOf(1, 1) }, NOW);
		expect(state.reserve).toBe(10);
	});
});

describe('waiting after a 429', () => {
	test('waits until X-RateLimit-Reset when the window is used up', () => {
		expect(
			waitAfterRateLimit(
				{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': inSeconds(20), 'retry-after': '1' },
				0,
				NOW,
			),
		).toEqual({ waitMs: 20_050, basis: 'X-RateLimit-Reset' });
	});
	test('honours Retry-After when the window still has requests left', () => {
		expect(
			waitAfterRateLimit(
				{ 'x-ratelimit-remaining': '40', 'x-ratelimit-reset': inSeconds(50), 'retry-after': '1' },
				0,
				NOW,
			),
		).toEqual({ waitMs: 1000, basis: 'Retry-After' });
	});
	test('uses Retry-After alone', () => {
		expect(waitAfterRateLimit({ 'retry-after': '3' }, 0, NOW)).toEqual({
			waitMs: 3000,
			basis: 'Retry-After',
		});
	});
	test('backs off exponentially with jitter when neither header is present', () => {
		const waits = [0, 1, 2, 3].map((retry) => waitAfterRateLimit({}, retry, NOW, () => 1).waitMs);
		expect(waits).toEqual([1000, 2000, 4000, 8000]);
		const low = waitAfterRateLimit({}, 2, NOW, () => 0);
		expect(low).toEqual({ waitMs: 2000, basis: 'backoff' });
	});
	test('a reset already past (clock skew) falls back to backoff', () => {
		expect(
			waitAfterRateLimit(
				{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': inSeconds(-5) },
				0,
				NOW,
				() => 0,
			).basis,
		).toBe('backoff');
	});
});

describe('the wait budget', () => {
	test('a wait that does not fit the remaining budget is refused', () => {
		const budget = new WaitBudget();
		expect(budget.limitMs).toBe(MAX_RATE_LIMIT_WAIT_MS);
		expect(budget.fits(MAX_RATE_LIMIT_WAIT_MS)).toBe(true);
		budget.spend(100_000);
		expect(budget.fits(20_000)).toBe(true);
		expect(budget.fits(20_001)).toBe(false);
		expect(budget.spent).toBe(100_000);
	});
});
