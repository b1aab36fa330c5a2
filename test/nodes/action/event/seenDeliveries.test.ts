import { recordUnseen } from '../../../../nodes/LeadConversations/actions/event/seenDeliveries';

describe('static-data memory of verified deliveries', () => {
	it('returns only keys not seen within the horizon and records them', () => {
		const seen: Record<string, number> = {};
		expect(recordUnseen(seen, ['a', 'b'], 1_000, 10_000, 100)).toEqual(['a', 'b']);
		expect(recordUnseen(seen, ['a', 'c'], 5_000, 10_000, 100)).toEqual(['c']);
		// "a" was first seen at 1,000: forgotten from 11,000 on, "c" still remembered.
		expect(recordUnseen(seen, ['a', 'c'], 11_000, 10_000, 100)).toEqual(['a']);
		expect(seen).toEqual({ a: 11_000, c: 5_000 });
	});

	it('keeps at most `cap` keys, forgetting the oldest first', () => {
		const seen: Record<string, number> = {};
		for (let i = 0; i < 5; i++) recordUnseen(seen, [`k${i}`], i, 10_000, 3);
		expect(Object.keys(seen).sort()).toEqual(['k2', 'k3', 'k4']);
		expect(recordUnseen(seen, ['k0', 'k4'], 10, 10_000, 3)).toEqual(['k0']);
	});
});
