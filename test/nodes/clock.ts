import { delays } from '../../nodes/shared/transport/delays';

const ALL_BUT_DATE = [
	'hrtime',
	'nextTick',
	'performance',
	'queueMicrotask',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
	'setTimeout',
	'clearTimeout',
] as const;

/**
 * Time in a test file passes only when the node waits. `Date` stands still (timers, sockets and
 * the event loop stay real), and each wait of the transport moves it to the wait's end at once:
 * the node and the sandbox, in one process, read the same clock, so rate-limit windows and retry
 * budgets hold as in real time while nothing is waited for. Waits that run side by side and end
 * at the same moment move the clock once.
 */
export function useJumpingClock(): { jumpTo: (ms: number) => void } {
	const real = { ...delays };
	beforeEach(() => {
		jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE], now: Date.now() });
		delays.sleep = async (ms) => {
			const until = Date.now() + ms;
			await new Promise((resolve) => setImmediate(resolve));
			if (until > Date.now()) jest.setSystemTime(until);
		};
	});
	afterEach(() => {
		jest.useRealTimers();
		Object.assign(delays, real);
	});
	return { jumpTo: (ms) => jest.setSystemTime(Math.max(Date.now(), ms)) };
}

/**
 * `Date` stands still at `ms` until `jest.useRealTimers()` (timers, sockets and the event loop
 * stay real): for what depends on the moment, such as shifts, on the service's clock and n8n's.
 */
export function stopDateAt(ms: number): void {
	jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE], now: ms });
}

/** Moves the clock to just after the start of the next clock-aligned window of the sandbox. */
export function startOfNextWindow(windowMs: number): number {
	return Math.ceil(Date.now() / windowMs) * windowMs + 10;
}

/**
 * Every wait of the node takes `factor` of its time, on the real clock: for races between a
 * node's wait and a service that answers late, which a jumping clock cannot hold (the service's
 * delay runs on real timers). The node still reasons in its own units (a 5 s budget, a 5 s message).
 */
export function useScaledWaits(factor: number): void {
	const real = { ...delays };
	beforeEach(() => {
		delays.sleep = async (ms) => await real.sleep(ms * factor);
	});
	afterEach(() => {
		Object.assign(delays, real);
	});
}
