import {
	DELIVERY_HORIZON_MS,
	DELIVERY_MEMORY_CAP,
	DeliveryDedup,
	deliveryKey,
} from '../../../nodes/LeadConversationsTrigger/deliveryDedup';

const MINUTE = 60_000;
const body = (text: string) => Buffer.from(text);

describe('deliveryKey: what makes two deliveries the same event', () => {
	it('is event|data.id|timestamp', () => {
		const payload = {
			event: 'lead.qualified',
			timestamp: '2025-01-10T12:00:00Z',
			data: { id: 'lead_1' },
		};
		expect(deliveryKey(payload, body('{}'))).toBe('lead.qualified|lead_1|2025-01-10T12:00:00Z');
	});

	it('tells apart two events about the same lead', () => {
		const qualified = { event: 'lead.qualified', timestamp: 't1', data: { id: 'lead_1' } };
		const assigned = { event: 'lead.assigned', timestamp: 't1', data: { id: 'lead_1' } };
		const later = { event: 'lead.qualified', timestamp: 't2', data: { id: 'lead_1' } };
		const keys = new Set([qualified, assigned, later].map((p) => deliveryKey(p, body('{}'))));
		expect(keys.size).toBe(3);
	});

	it('falls back to a digest of the body when data.id or timestamp is missing', () => {
		const payload = { event: 'lead.qualified', data: {} };
		const first = deliveryKey(payload, body('{"a":1}'));
		expect(first).toMatch(/^body\|[0-9a-f]{64}$/);
		expect(deliveryKey(payload, body('{"a":1}'))).toBe(first);
		expect(deliveryKey(payload, body('{"a":2}'))).not.toBe(first);
	});
});

describe('DeliveryDedup: a bounded set of keys remembered for the retry horizon', () => {
	it('outlasts the service retry schedule (about 1, 5 and 30 minutes after the first failure)', () => {
		expect(DELIVERY_HORIZON_MS).toBeGreaterThanOrEqual(45 * MINUTE);
		const dedup = new DeliveryDedup();
		const start = Date.UTC(2025, 0, 10);
		expect(dedup.isDuplicate('k', start)).toBe(false);
		for (const minutes of [1, 6, 36, 44]) {
			expect(dedup.isDuplicate('k', start + minutes * MINUTE)).toBe(true);
		}
	});

	it('forgets a key once its horizon has passed', () => {
		const dedup = new DeliveryDedup(10 * MINUTE, 100);
		expect(dedup.isDuplicate('k', 0)).toBe(false);
		expect(dedup.isDuplicate('k', 9 * MINUTE)).toBe(true);
		expect(dedup.isDuplicate('k', 10 * MINUTE)).toBe(false);
		expect(dedup.size).toBe(1);
	});

	it('holds at most its cap, forgetting the oldest first', () => {
		expect(DELIVERY_MEMORY_CAP).toBe(5000);
		const dedup = new DeliveryDedup(DELIVERY_HORIZON_MS, 3);
		for (const key of ['a', 'b', 'c', 'd']) dedup.isDuplicate(key, 0);
		expect(dedup.size).toBe(3);
		expect(dedup.isDuplicate('d', 1)).toBe(true);
		expect(dedup.isDuplicate('a', 1)).toBe(false);
	});

	it('stays within 5,000 keys under a flood of distinct events', () => {
		const dedup = new DeliveryDedup();
		for (let i = 0; i < 12_000; i++) dedup.isDuplicate(`lead.created|lead_${i}|t`, i);
		expect(dedup.size).toBe(DELIVERY_MEMORY_CAP);
		expect(dedup.isDuplicate('lead.created|lead_11999|t', 12_000)).toBe(true);
	});
});
