// Many clients and workers on one key, played against a simulated service: no overrun, little waste.

import {
	pacingWaitMs,
	settleSlot,
	takeSlot,
	type PacingState,
} from '../../../../nodes/shared/transport/pacing';
import { NOTHING_KNOWN, NOW, reportOf } from './fixtures';
import { simulate } from './simulatedService';

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
				const [state] = result.states;
				expect([state.others ?? 0, state.last?.others ?? 0]).toEqual([0, 0]);
			}
		},
	);
});

describe('workers that share nothing but the service spend one key together', () => {
	// Return All runs: one request at a time each, two (or five) per worker, as in n8n's queue mode.
	test.each([
		{ workers: 2, clients: 4, requestsEach: 10, limit: 20, windowMs: 2000, latencyMs: 15 },
		{ workers: 2, clients: 4, requestsEach: 25, limit: 20, windowMs: 2000, latencyMs: 40 },
		{ workers: 2, clients: 10, requestsEach: 25, limit: 20, windowMs: 2000, latencyMs: 40 },
		{ workers: 2, clients: 4, requestsEach: 100, limit: 20, windowMs: 2000, latencyMs: 40 },
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

	test('a long read by two workers settles near the limit: from the third window on, while every run reads, each holds 19 or 20 of 20', () => {
		for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
			const result = simulate({
				workers: 2,
				clients: 4,
				requestsEach: 100,
				limit: 20,
				windowMs: 2000,
				latencyMs: 40,
				seed,
			});
			const steady = result.whileAllRead.slice(2);
			expect(steady.length).toBeGreaterThanOrEqual(15);
			expect(steady.filter((count) => count < 19)).toEqual([]);
		}
	});

	test.each([
		{ workers: 3, clients: 6, requestsEach: 20, limit: 30, windowMs: 2000, latencyMs: 20, most: 2 },
		{ workers: 4, clients: 8, requestsEach: 20, limit: 40, windowMs: 1000, latencyMs: 10, most: 4 },
	])(
		'$workers workers, $clients runs × $requestsEach pages, $limit per $windowMs ms: within 1.25 × the ideal time, at most $most × 429 in a window',
		({ most, ...scenario }) => {
			// More processes see each other's last requests less often: what is measured here, not
			// the one-per-window of two workers.
			const { clients, requestsEach, limit, windowMs } = scenario;
			const ideal = ((clients * requestsEach) / limit) * windowMs;
			for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
				const result = simulate({ ...scenario, seed });
				expect(result.mostRefusedInOneWindow).toBeLessThanOrEqual(most);
				expect(result.seconds * 1000).toBeLessThanOrEqual(1.25 * ideal);
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

	test('a worker learns from a lower count than its own requests explain, and stops at its share', () => {
		// The last window: this worker 10, the others 10, of 20.
		const state: PacingState = {
			...NOTHING_KNOWN,
			remaining: 20,
			resetAtMs: NOW + 1000,
			capacity: 20,
			last: { own: 10, others: 10, capacity: 20 },
		};
		// The others spend one for every two of this worker's.
		for (let own = 1; own <= 10; own++) {
			expect(pacingWaitMs(state, NOW)).toBeLessThan(1000);
			const slot = takeSlot(state, NOW);
			settleSlot(state, slot, { headers: reportOf(20 - own - Math.floor(own / 2), 1) }, NOW);
		}
		// Its 10 taken, the others 5 of their 10: the 5 left are theirs.
		expect(state.others).toBe(5);
		expect(state.remaining).toBe(5);
		expect(pacingWaitMs(state, NOW)).toBe(1050);
	});

	test('while others share the window, a worker spreads its share over what is left of it', () => {
		const state: PacingState = {
			...NOTHING_KNOWN,
			remaining: 20,
			resetAtMs: NOW + 2000,
			capacity: 20,
			last: { own: 10, others: 10, capacity: 20 },
		};
		takeSlot(state, NOW);
		// 9 more of its own in the 2 s left: one every 200 ms.
		expect(pacingWaitMs(state, NOW)).toBe(200);
		expect(pacingWaitMs(state, NOW + 150)).toBe(50);
		// Alone, nothing is spread.
		const alone: PacingState = { ...NOTHING_KNOWN, remaining: 20, resetAtMs: NOW + 2000 };
		takeSlot(alone, NOW);
		expect(pacingWaitMs(alone, NOW)).toBe(0);
	});

	test('a 429 without counts where room was known is a sign of others; one where none was is not', () => {
		const state: PacingState = { ...NOTHING_KNOWN, remaining: 3, resetAtMs: NOW + 1000 };
		const surprised = takeSlot(state, NOW);
		expect(surprised.roomLeft).toBe(2);
		settleSlot(state, surprised, { headers: {}, status: 429 }, NOW);
		expect(state.others).toBe(3);

		const alone: PacingState = { ...NOTHING_KNOWN, remaining: 0, resetAtMs: NOW + 1000 };
		// Sent beyond the wait budget, with the window known to be used up: a 429 was expected.
		const expected = takeSlot(alone, NOW);
		settleSlot(alone, expected, { headers: {}, status: 429 }, NOW);
		expect(alone.others ?? 0).toBe(0);
	});

	test("a window seen used up held, besides this worker's own, the others' requests; the next one goes by it", () => {
		const state: PacingState = { ...NOTHING_KNOWN, remaining: 20, resetAtMs: NOW + 1000 };
		state.capacity = 20;
		for (let own = 1; own <= 8; own++) {
			const slot = takeSlot(state, NOW);
			// The others spent 12 at once after this worker's first request.
			settleSlot(state, slot, { headers: reportOf(Math.max(0, 20 - own - 12), 1) }, NOW);
		}
		// The window reset: the next request ends it.
		takeSlot(state, NOW + 1050);
		expect(state.last).toEqual({ own: 8, others: 12, capacity: 20 });
	});

	test("others that stopped: the window after one without them is this worker's alone", () => {
		const state: PacingState = {
			...NOTHING_KNOWN,
			remaining: 20,
			resetAtMs: NOW + 1000,
			capacity: 20,
			last: { own: 10, others: 10, capacity: 20 },
		};
		for (let own = 1; own <= 10; own++) {
			const slot = takeSlot(state, NOW);
			settleSlot(state, slot, { headers: reportOf(20 - own, 1) }, NOW);
		}
		// Held at its share with 10 left: the others were expected to spend them, and did not.
		expect(pacingWaitMs(state, NOW)).toBe(1050);
		takeSlot(state, NOW + 1050);
		expect(state.last).toEqual({ own: 10, others: 0, capacity: 20 });
		expect(pacingWaitMs(state, NOW + 1050)).toBe(0);
	});
});
