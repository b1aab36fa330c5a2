import {
	advanceNewLeads,
	baselineNewLeads,
	enteredSince,
	readPosition,
	writePosition,
	type StoredPosition,
} from '../../../nodes/LeadConversationsPollTrigger/position';
import { watchOf } from '../../../nodes/LeadConversationsPollTrigger/watchers';

const lead = (id: string, created_at: string) => ({ id, created_at });
const T = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:00:00.001Z';

describe('the new-lead mark', () => {
	test('the leads at the mark are not new; a twin created in the same millisecond is', () => {
		const { fresh, position } = advanceNewLeads({ mark: T, atMark: ['lead_a'] }, [
			lead('lead_a', T),
			lead('lead_b', T),
		]);
		expect(fresh.map((l) => l.id)).toEqual(['lead_b']);
		expect(position).toEqual({ mark: T, atMark: ['lead_a', 'lead_b'] });
	});

	test('moves to the latest creation time, whatever the list order, and keeps only its IDs', () => {
		const { fresh, position } = advanceNewLeads({ mark: T, atMark: ['lead_a'] }, [
			lead('lead_c', T1),
			lead('lead_a', T),
			lead('lead_b', T1),
			lead('lead_c', T1),
		]);
		expect(fresh.map((l) => l.id)).toEqual(['lead_c', 'lead_b']);
		expect(position).toEqual({ mark: T1, atMark: ['lead_c', 'lead_b'] });
	});

	test('the baseline announces nothing before it and starts at the latest lead', () => {
		expect(baselineNewLeads(T, [lead('lead_x', T1)])).toEqual({ mark: T1, atMark: ['lead_x'] });
		expect(baselineNewLeads(T, [])).toEqual({ mark: T, atMark: [] });
	});
});

describe('status sets', () => {
	test('a record is new to the status when its ID was not in the set at the last poll', () => {
		expect(enteredSince(['lead_a'], [{ id: 'lead_a' }, { id: 'lead_b' }])).toEqual([
			{ id: 'lead_b' },
		]);
	});

	test('another watch (the settings changed) reads as no position: a new baseline', () => {
		const watch = watchOf({
			event: 'leadStatus',
			statuses: ['qualified'],
			conversationChannel: '',
			conditions: {},
			output: 'event',
			includeExisting: false,
		});
		const data = {};
		const position: StoredPosition = { version: 1, watch, inStatus: { qualified: ['lead_a'] } };
		writePosition(data, position);
		expect(readPosition(data, watch)).toEqual(position);
		expect(
			readPosition(
				data,
				watchOf({
					event: 'leadStatus',
					statuses: ['qualified', 'assigned'],
					conversationChannel: '',
					conditions: {},
					output: 'event',
					includeExisting: false,
				}),
			),
		).toBeUndefined();
	});
});
