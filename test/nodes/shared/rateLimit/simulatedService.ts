import {
	joinQueue,
	leaveQueue,
	pacingWaitMs,
	settleSlot,
	takeSlot,
} from '../../../../nodes/shared/transport/pacing';
import type { PacingState } from '../../../../nodes/shared/transport/pacingState';
import { seededRandom } from '../../../../harness/support/random';
import { NOTHING_KNOWN, NOW } from './fixtures';

/**
 * Parallel clients against a service with clock-aligned windows that counts every request when it
 * arrives, 429s too, like the sandbox. Clients are spread over `workers`, one pacing state each
 * (the processes of n8n's queue mode: they share nothing but the service's answers). Latencies
 * both ways are random, so requests arrive in another order than they were sent and answers in
 * another order again.
 */
export function simulate(options: {
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
	/** Up to this long between an answer and the client's next request (its work on the page). */
	thinkMs?: number;
	/** Each worker's clients start this much later than the previous worker's (a worker joining). */
	workerDelayMs?: number;
}) {
	const { clients, requestsEach, limit, workers = 1, windowMs = 1000 } = options;
	const { burstPerWindow = 0, startMs = 0, thinkMs = 0, workerDelayMs = 0 } = options;
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

	const client =
		(state: PacingState, left: number, queued = false) =>
		(now: number): void => {
			if (left === 0) {
				finishedAt = Math.max(finishedAt, now);
				running--;
				return;
			}
			if (!queued) joinQueue(state);
			const wait = pacingWaitMs(state, now);
			if (wait > 0) {
				events.push({ at: now + wait, run: client(state, left, true) });
				return;
			}
			leaveQueue(state);
			send(state, left, now);
		};
	const send = (state: PacingState, left: number, now: number) => {
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
							if (thinkMs === 0) client(state, left - 1)(answeredAt);
							// The client's own work on a page before it asks for the next one.
							else
								events.push({ at: answeredAt + random() * thinkMs, run: client(state, left - 1) });
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
		const at = NOW + startMs + (i % workers) * workerDelayMs + random() * 20;
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
		/** The most 429s in one window after the first: the first is where workers learn of each other. */
		mostRefusedAfterFirst: Math.max(
			0,
			...[...refusedIn.entries()]
				.filter(([windowStart]) => windowStart > Math.min(...counted.keys()))
				.map(([, refusedThere]) => refusedThere),
		),
		windows: counted.size,
		seconds: (finishedAt - NOW) / 1000,
		states,
	};
}
