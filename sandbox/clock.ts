// The service's clock: real time plus an offset that only moves forward. Every time the sandbox
// writes into its data (created_at, updated_at, last_activity_at, last_message_at, message
// created_at, webhook payload timestamps) and the Date header of every answer come from here, so
// a test can let 15 minutes pass in a millisecond. Rate-limit windows, the request log and
// webhook retry timers stay on real time (README: "The clock").

/** Whole days are allowed; more than this in one call is a mistake in the caller. */
export const MAX_ADVANCE_MS = 366 * 24 * 60 * 60_000;

export class SandboxClock {
	private offsetMs = 0;

	/** Epoch ms on the service's clock. Reads Date.now() each time, so a faked Date still applies. */
	now(): number {
		return Date.now() + this.offsetMs;
	}

	/** How far the service's clock is ahead of real time. */
	get offset(): number {
		return this.offsetMs;
	}

	advance(ms: number): void {
		this.offsetMs += ms;
	}

	/** Back to real time (a reset reseeds the data, so no record is left "in the future"). */
	reset(): void {
		this.offsetMs = 0;
	}

	/** The HTTP Date header: whole seconds, RFC 7231 IMF-fixdate. */
	httpDate(): string {
		return new Date(this.now()).toUTCString();
	}
}
