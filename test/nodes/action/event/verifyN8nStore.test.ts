// Where the engine offers n8n's de-duplication store (n8n 2.x with its database: the store behind
// the Remove Duplicates node), Verify keeps its keys there, so they hold across executions that
// share no static data: other webhook processes, workers, restarts. Here the store is set up the
// way n8n does at start-up, over an in-memory stand-in for n8n's `processed_data` table.

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
} from 'n8n-workflow';

import { eventBody, rejectedOf, runVerify, signed, verifiedOf } from './verifyRun';

/**
 * n8n's entries mode: the keys of one node, the newest `maxEntries` kept. n8n scopes them by
 * workflow ID and node ID; the harness gives every run fresh IDs, so names stand in for them.
 */
class MemoryDeduplicator implements IDataDeduplicator {
	readonly rows = new Map<string, string[]>();
	calls = 0;
	failNext = false;

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		_scope: string,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	) {
		this.calls++;
		if (this.failNext) {
			this.failNext = false;
			throw new Error('SQLITE_BUSY: database is locked');
		}
		expect(options.mode).toBe('entries');
		const workflow = contextData.workflow as unknown as { name: string };
		const row = `${workflow.name}|${contextData.node?.name}`;
		const stored = this.rows.get(row) ?? [];
		const seen = new Set(stored);
		const result = {
			new: [] as DeduplicationItemTypes[],
			processed: [] as DeduplicationItemTypes[],
		};
		for (const item of items) {
			if (seen.has(String(item))) result.processed.push(item);
			else {
				result.new.push(item);
				stored.push(String(item));
			}
		}
		this.rows.set(row, stored.slice(-(options.maxEntries ?? stored.length)));
		return result;
	}

	async removeProcessed() {}
	async clearAllProcessedItems() {}
	async getProcessedDataCount() {
		return 0;
	}
}

const store = new MemoryDeduplicator();
beforeAll(async () => {
	await DataDeduplicationService.init(store);
});

describe('Event → Verify with n8n’s de-duplication store', () => {
	it('refuses a retry in an execution that shares no static data with the first (another process, a restart)', async () => {
		const delivery = signed(eventBody({}, { id: 'lead_store01', score: 80 }));
		const first = await runVerify([delivery]);
		expect(verifiedOf(first)).toHaveLength(1);
		// Nothing in static data: the key went to n8n's store.
		expect(first.staticData).toEqual({});

		const retry = await runVerify([delivery], { staticData: {} });
		expect(verifiedOf(retry)).toEqual([]);
		expect(rejectedOf(retry).map((item) => item.reason)).toEqual(['duplicate']);
	});

	it('asks the store once per execution, with one key per distinct delivery', async () => {
		const a = signed(eventBody({}, { id: 'lead_store02' }));
		const b = signed(eventBody({}, { id: 'lead_store03' }));
		const before = store.calls;
		const result = await runVerify([a, b, a, { body: a.body }]);
		expect(store.calls - before).toBe(1);
		expect(verifiedOf(result)).toHaveLength(2);
		expect(rejectedOf(result).map((item) => item.reason)).toEqual([
			'duplicate',
			'missing_signature',
		]);
	});

	it('fails rather than let a delivery through unchecked when the store cannot be read', async () => {
		store.failNext = true;
		const result = await runVerify([signed(eventBody({}, { id: 'lead_store04' }))]);
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('SQLITE_BUSY');
		expect(result.output('Verified Sink')).toHaveLength(0);
	});
});
