import {
	RECENT_CAP,
	RECENT_MS,
	RESEND_MS,
	recentKeys,
	rememberVerified,
} from '../../../../nodes/LeadConversations/actions/event/recentlyVerified';

describe('keys this process let through lately', () => {
	it('are passed again until RECENT_MS has gone by, per node', () => {
		rememberVerified('wf|a', ['k1', 'k2'], 1_000);
		rememberVerified('wf|a', ['k3'], 2_000);
		rememberVerified('wf|b', ['other'], 1_000);
		expect(recentKeys('wf|a', 1_000 + RECENT_MS - 1)).toEqual(['k1', 'k2', 'k3']);
		expect(recentKeys('wf|a', 1_000 + RECENT_MS)).toEqual(['k3']);
		expect(recentKeys('wf|b', 1_000 + RECENT_MS - 1)).toEqual(['other']);
		expect(recentKeys('wf|a', 2_000 + RECENT_MS)).toEqual([]);
		expect(recentKeys('wf|unknown', 0)).toEqual([]);
	});

	it('a key let through again counts from its latest time', () => {
		rememberVerified('wf|c', ['old', 'again'], 0);
		rememberVerified('wf|c', ['again'], 50_000);
		expect(recentKeys('wf|c', RECENT_MS)).toEqual(['again']);
	});

	it(`holds at most ${RECENT_CAP} keys, the oldest leaving first`, () => {
		const keys = Array.from({ length: RECENT_CAP + 5 }, (_, i) => `key${i}`);
		rememberVerified('wf|d', keys, 10);
		const kept = recentKeys('wf|d', 10);
		expect(kept).toHaveLength(RECENT_CAP);
		expect(kept[0]).toBe('key5');
		expect(kept[kept.length - 1]).toBe(`key${RECENT_CAP + 4}`);
	});
});

describe('keys passed again to the store', () => {
	it(`are only those of the last ${RESEND_MS / 1000} s, while the memory holds ${RECENT_MS / 1000} s`, () => {
		rememberVerified('wf|e', ['early'], 0);
		rememberVerified('wf|e', ['late'], RESEND_MS);
		expect(recentKeys('wf|e', RESEND_MS + 1, RESEND_MS)).toEqual(['late']);
		expect(recentKeys('wf|e', RESEND_MS + 1)).toEqual(['early', 'late']);
	});
});
