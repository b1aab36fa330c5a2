import {
	ALLOWED_CLOCK_AHEAD_MS,
	DEFAULT_REPLAY_WINDOW_MINUTES,
	replayWindowProblem,
} from '../../../../nodes/LeadConversations/actions/event/replayWindow';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const WINDOW_MS = DEFAULT_REPLAY_WINDOW_MINUTES * 60_000;

describe('replay window', () => {
	it('covers the service’s last retry, about 36 minutes after the event', () => {
		expect(DEFAULT_REPLAY_WINDOW_MINUTES).toBeGreaterThan(36);
		expect(
			replayWindowProblem(at(-36 * 60_000), NOW, DEFAULT_REPLAY_WINDOW_MINUTES),
		).toBeUndefined();
	});

	it('keeps both edges inside and refuses one millisecond beyond either', () => {
		const check = (offset: number) =>
			replayWindowProblem(at(offset), NOW, DEFAULT_REPLAY_WINDOW_MINUTES);
		expect(check(-WINDOW_MS)).toBeUndefined();
		expect(check(-WINDOW_MS - 1)).toMatch(/more than the replay window of 60 minutes/);
		expect(check(ALLOWED_CLOCK_AHEAD_MS)).toBeUndefined();
		expect(check(ALLOWED_CLOCK_AHEAD_MS + 1)).toMatch(/in the future/);
		expect(check(0)).toBeUndefined();
	});

	it('refuses a missing or unreadable timestamp unless the window is off', () => {
		for (const timestamp of [undefined, null, '', 'soon', 1736942400000]) {
			expect(replayWindowProblem(timestamp, NOW, 60)).toMatch(/no valid "timestamp"/);
			expect(replayWindowProblem(timestamp, NOW, 0)).toBeUndefined();
		}
	});

	it('accepts timestamps with an offset, compared as instants', () => {
		expect(replayWindowProblem('2026-01-15T08:30:00-03:00', NOW, 60)).toBeUndefined();
		expect(replayWindowProblem('2026-01-15T10:59:59Z', NOW, 60)).toMatch(/61 minutes ago/);
	});
});
