import {
	DELIVERY_HORIZON_MS,
	DELIVERY_MEMORY_CAP,
	DeliveryDedup,
	canonicalJson,
	deliveryKey,
} from '../../../nodes/shared/events/dedup';

const MINUTE = 60_000;
const reparsed = (payload: unknown, space?: number) =>
	JSON.parse(JSON.stringify(payload, null, space)) as Record<string, unknown>;

describe('canonicalJson: one text for one JSON value', () => {
	it('sorts the keys of every object, at every depth, and keeps array order', () => {
		expect(canonicalJson({ b: 1, a: { d: [3, 1], c: null } })).toBe(
			'{"a":{"c":null,"d":[3,1]},"b":1}',
		);
		expect(canonicalJson({ a: { c: null, d: [3, 1] }, b: 1 })).toBe(
			canonicalJson({ b: 1, a: { d: [3, 1], c: null } }),
		);
		expect(canonicalJson([1, 3])).not.toBe(canonicalJson([3, 1]));
	});

	it('writes strings as JSON does, so "é" and its escape read alike', () => {
		expect(canonicalJson(JSON.parse('{"name":"Jos\\u00e9"}'))).toBe('{"name":"José"}');
	});
});

describe('deliveryKey: what makes two deliveries the same event', () => {
	const qualified = {
		event: 'lead.qualified',
		timestamp: '2025-01-10T12:00:00.000Z',
		organization_id: 'org_alpha',
		data: { id: 'lead_1', score: 70, status: 'qualified' },
	};

	it('is event|data.id|timestamp followed by a digest of data', () => {
		expect(deliveryKey(qualified)).toMatch(
			/^lead\.qualified\|lead_1\|2025-01-10T12:00:00\.000Z\|[0-9a-f]{64}$/,
		);
	});

	it('is the same for a retry of the event, also re-serialized with other spacing or key order', () => {
		const reordered = {
			data: { status: 'qualified', score: 70, id: 'lead_1' },
			organization_id: 'org_alpha',
			timestamp: '2025-01-10T12:00:00.000Z',
			event: 'lead.qualified',
		};
		expect(deliveryKey(reparsed(qualified))).toBe(deliveryKey(qualified));
		expect(deliveryKey(reparsed(qualified, 2))).toBe(deliveryKey(qualified));
		expect(deliveryKey(reordered)).toBe(deliveryKey(qualified));
	});

	it('tells apart two different events about one lead in the same millisecond', () => {
		const scoredAgain = { ...qualified, data: { ...qualified.data, score: 92 } };
		expect(deliveryKey(scoredAgain)).not.toBe(deliveryKey(qualified));

		const transferred = {
			event: 'conversation.status_changed',
			timestamp: '2025-01-10T12:00:00.000Z',
			data: { id: 'conv_1', status: 'transferred', previous_status: 'open' },
		};
		const closed = {
			...transferred,
			data: { id: 'conv_1', status: 'closed', previous_status: 'transferred' },
		};
		expect(deliveryKey(closed)).not.toBe(deliveryKey(transferred));
	});

	it('tells apart two events about the same lead by event name and by timestamp', () => {
		const assigned = { ...qualified, event: 'lead.assigned' };
		const later = { ...qualified, timestamp: '2025-01-10T12:05:00.000Z' };
		const keys = new Set([qualified, assigned, later].map((payload) => deliveryKey(payload)));
		expect(keys.size).toBe(3);
	});

	it('compares the whole payload when data.id or timestamp is missing, still regardless of spacing or key order', () => {
		const withoutId = { event: 'lead.qualified', timestamp: 't1', data: { score: 70 } };
		const first = deliveryKey(withoutId);
		expect(first).toMatch(/^payload\|[0-9a-f]{64}$/);
		expect(deliveryKey(reparsed(withoutId, 2))).toBe(first);
		expect(deliveryKey({ data: { score: 70 }, timestamp: 't1', event: 'lead.qualified' })).toBe(
			first,
		);
		expect(deliveryKey({ ...withoutId, data: { score: 71 } })).not.toBe(first);
		expect(deliveryKey({ event: 'lead.qualified', data: { id: 'lead_1' } })).toMatch(/^payload\|/);
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
		expect(dedup.isDuplicate('k', 10 * MINUTE)).toBe(true);
		expect(dedup.isDuplicate('k', 10 * MINUTE + 1)).toBe(false);
		expect(dedup.size).toBe(1);
	});

	it('holds at most its cap, forgetting the oldest first', () => {
		expect(DELIVERY_MEMORY_CAP).toBe(20_000);
		const dedup = new DeliveryDedup(DELIVERY_HORIZON_MS, 3);
		for (const key of ['a', 'b', 'c', 'd']) dedup.isDuplicate(key, 0);
		expect(dedup.size).toBe(3);
		expect(dedup.isDuplicate('d', 1)).toBe(true);
		expect(dedup.isDuplicate('a', 1)).toBe(false);
	});

	it('stays within 20,000 keys under a flood of distinct events', () => {
		const dedup = new DeliveryDedup();
		for (let i = 0; i < 45_000; i++) dedup.isDuplicate(`lead.created|lead_${i}|t`, i);
		expect(dedup.size).toBe(DELIVERY_MEMORY_CAP);
		expect(dedup.isDuplicate('lead.created|lead_44999|t', 45_000)).toBe(true);
		expect(dedup.isDuplicate('lead.created|lead_0|t', 45_001)).toBe(false);
	});

	it('remembers a key for the whole replay window: 60 minutes back plus 5 ahead', () => {
		expect(DELIVERY_HORIZON_MS).toBe(65 * MINUTE);
		const dedup = new DeliveryDedup();
		expect(dedup.isDuplicate('k', 0)).toBe(false);
		expect(dedup.isDuplicate('k', 65 * MINUTE)).toBe(true);
	});
});
