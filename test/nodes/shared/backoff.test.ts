import { backoffMs } from '../../../nodes/shared/transport/backoff';
import { RATE_LIMIT_BACKOFF } from '../../../nodes/shared/transport/rateLimit';
import { TRANSIENT_BACKOFF } from '../../../nodes/shared/transport/retryPolicy';

describe('backoff', () => {
	test.each([
		['transient faults', TRANSIENT_BACKOFF],
		['429 without headers', RATE_LIMIT_BACKOFF],
	])('%s: between half and all of base·2^n, capped', (_name, policy) => {
		for (let retry = 0; retry < 12; retry++) {
			const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** retry);
			expect(backoffMs(retry, policy, () => 0)).toBe(ceiling / 2);
			expect(backoffMs(retry, policy, () => 0.999999)).toBeLessThanOrEqual(ceiling);
			expect(backoffMs(retry, policy, () => 1)).toBe(ceiling);
		}
		expect(backoffMs(30, policy, () => 1)).toBe(policy.capMs);
	});
});
