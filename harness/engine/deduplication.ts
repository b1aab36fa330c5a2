// n8n's de-duplication store (the one behind the Remove Duplicates node and `checkProcessedAndRecord`)
// for the engine: n8n sets it up at start-up over its `processed_data` table; this is the same
// store in memory, keys kept per workflow and node (or workflow), the newest `maxEntries` of each.
// Entries mode only, which is what the package and the examples use.

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
} from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

export class MemoryDeduplicator implements IDataDeduplicator {
	readonly rows = new Map<string, string[]>();

	private rowOf(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
		const node = scope === 'node' ? (contextData.node?.id ?? contextData.node?.name ?? '') : '';
		return `${contextData.workflow.id}|${node}`;
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	) {
		if (options.mode !== 'entries') throw new UserError(`Mode ${options.mode} is not offered`);
		const row = this.rowOf(scope, contextData);
		const stored = this.rows.get(row) ?? [];
		const seen = new Set(stored);
		const result = {
			new: [] as DeduplicationItemTypes[],
			processed: [] as DeduplicationItemTypes[],
		};
		for (const item of items) {
			if (seen.has(String(item))) {
				result.processed.push(item);
			} else {
				result.new.push(item);
				seen.add(String(item));
				stored.push(String(item));
			}
		}
		this.rows.set(row, stored.slice(-(options.maxEntries ?? stored.length)));
		return result;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	) {
		const row = this.rowOf(scope, contextData);
		const gone = new Set(items.map(String));
		this.rows.set(
			row,
			(this.rows.get(row) ?? []).filter((key) => !gone.has(key)),
		);
	}

	async clearAllProcessedItems(scope: DeduplicationScope, contextData: ICheckProcessedContextData) {
		this.rows.delete(this.rowOf(scope, contextData));
	}

	async getProcessedDataCount(scope: DeduplicationScope, contextData: ICheckProcessedContextData) {
		return this.rows.get(this.rowOf(scope, contextData))?.length ?? 0;
	}
}

let installed: MemoryDeduplicator | undefined;

/** Sets n8n's store up once per process (n8n allows one), in memory; returns it. */
export async function useMemoryDeduplication(): Promise<MemoryDeduplicator> {
	if (!installed) {
		installed = new MemoryDeduplicator();
		await DataDeduplicationService.init(installed);
	}
	return installed;
}
