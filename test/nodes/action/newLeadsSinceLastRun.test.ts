import {
	createdAfterFor,
	querySignature,
	readMark,
	writeMark,
} from '../../../nodes/LeadConversations/helpers/newLeadsSinceLastRun';
import { MarkTracker, seenBefore, type LeadMark } from '../../../nodes/shared/leadMark';

const lead = (id: string, created_at: string) => ({ id, created_at });

describe('the high-water mark', () => {
	test('is the newest created_at seen, whatever the order of the list', () => {
		const tracker = new MarkTracker();
		for (const l of [
			lead('lead_b', '2025-05-02T00:00:00Z'),
			lead('lead_c', '2025-05-03T00:00:00Z'),
			lead('lead_a', '2025-05-01T00:00:00Z'),
		]) {
			tracker.observe(l);
		}
		expect(tracker.next(undefined)).toEqual({
			createdAt: '2025-05-03T00:00:00Z',
			idsAtMark: ['lead_c'],
		});
	});

	test('keeps every ID created at exactly the mark, also across runs', () => {
		const first = new MarkTracker();
		first.observe(lead('lead_a', '2025-05-03T00:00:00Z'));
		const mark = first.next(undefined)!;
		const second = new MarkTracker();
		second.observe(lead('lead_b', '2025-05-03T00:00:00.000Z'));
		expect(second.next(mark)).toEqual({
			createdAt: '2025-05-03T00:00:00Z',
			idsAtMark: ['lead_a', 'lead_b'],
		});
	});

	test('stays where it was when nothing new came back', () => {
		const mark: LeadMark = { createdAt: '2025-05-03T00:00:00Z', idsAtMark: ['lead_a'] };
		expect(new MarkTracker().next(mark)).toBe(mark);
	});

	test('never moves backwards', () => {
		const mark: LeadMark = { createdAt: '2025-05-03T00:00:00Z', idsAtMark: ['lead_a'] };
		const tracker = new MarkTracker();
		tracker.observe(lead('lead_old', '2025-04-01T00:00:00Z'));
		expect(tracker.next(mark)).toBe(mark);
	});
});

describe('what counts as already returned', () => {
	const mark: LeadMark = { createdAt: '2025-05-03T00:00:00Z', idsAtMark: ['lead_a'] };
	test.each([
		[lead('lead_a', '2025-05-03T00:00:00Z'), true],
		[lead('lead_b', '2025-05-03T00:00:00Z'), false],
		[lead('lead_c', '2025-05-02T23:59:59Z'), true],
		[lead('lead_d', '2025-05-03T00:00:01Z'), false],
	])('%p → seen before: %p', (l, seen) => {
		expect(seenBefore(l, mark)).toBe(seen);
	});
	test('without a mark nothing was seen', () => {
		expect(seenBefore(lead('lead_a', '2025-05-03T00:00:00Z'), undefined)).toBe(false);
	});
});

describe('the query and the stored marks', () => {
	test('created_after is the later of the filter and the mark', () => {
		const mark: LeadMark = { createdAt: '2025-05-03T00:00:00Z', idsAtMark: [] };
		expect(createdAfterFor(undefined, mark)).toBe('2025-05-03T00:00:00Z');
		expect(createdAfterFor('2025-06-01T00:00:00Z', mark)).toBe('2025-06-01T00:00:00Z');
		expect(createdAfterFor('2025-01-01T00:00:00Z', mark)).toBe('2025-05-03T00:00:00Z');
		expect(createdAfterFor('2025-01-01T00:00:00Z', undefined)).toBe('2025-01-01T00:00:00Z');
	});

	test('each set of filters has its own mark, in a stable key', () => {
		expect(querySignature({ status: 'new', channel: 'email' })).toBe('channel=email&status=new');
		expect(querySignature({ channel: 'email', status: 'new' })).toBe('channel=email&status=new');
		expect(querySignature({})).toBe('all leads');
		const staticData = {};
		writeMark(staticData, 'status=new', {
			createdAt: '2025-05-03T00:00:00Z',
			idsAtMark: ['lead_a'],
		});
		writeMark(staticData, 'all leads', { createdAt: '2025-05-04T00:00:00Z', idsAtMark: [] });
		expect(readMark(staticData, 'status=new')).toEqual({
			createdAt: '2025-05-03T00:00:00Z',
			idsAtMark: ['lead_a'],
		});
		expect(readMark(staticData, 'channel=email')).toBeUndefined();
	});

	test('a damaged stored mark is ignored rather than trusted', () => {
		expect(
			readMark({ newLeadsSinceLastRun: { 'all leads': { createdAt: 'soon' } } }, 'all leads'),
		).toBeUndefined();
	});
});
