import type {
	AgentRecord,
	AppointmentRecord,
	ConversationRecord,
	LeadRecord,
	OrganizationRecord,
	WebhookRecord,
} from './types';

/** Keyset position of a record in list order. */
export interface Position {
	ms: number;
	id: string;
}

export interface Sortable {
	id: string;
	created_ms: number;
}

export interface PageQuery<T> {
	/** Continue after this record (exclusive); from the beginning when omitted. */
	after?: Position;
	limit: number;
	/** Undefined: every record matches. */
	match?: (item: T) => boolean;
	/** Inclusive bounds on created_ms: narrowed by binary search, never scanned. */
	createdFrom?: number;
	createdTo?: number;
}

export interface Page<T> {
	items: T[];
	hasMore: boolean;
}

/**
 * Records kept sorted for keyset pagination. List order is `created_at` descending, then `id`
 * ascending. The array holds the REVERSE of list order (oldest first), so that a new record,
 * which is the newest, is appended with a push; pages are read by walking backwards.
 * A page costs a binary search plus a scan that stops after limit + 1 matches, independent of
 * the collection size. `total` per filter signature is cached until the data version changes.
 */
export class SortedCollection<T extends Sortable> {
	private items: T[] = [];
	private totals = new Map<string, { version: number; total: number }>();
	/** Bumped by every change that may alter filter results. */
	version = 0;

	get size(): number {
		return this.items.length;
	}

	/** Replaces the content (used by seeding: one sort instead of many inserts). */
	load(items: T[]): void {
		this.items = items
			.slice()
			.sort((a, b) => a.created_ms - b.created_ms || (a.id > b.id ? -1 : a.id < b.id ? 1 : 0));
		this.changed();
	}

	insert(item: T): void {
		const items = this.items;
		const last = items[items.length - 1];
		if (!last || storageBefore(last, item)) {
			items.push(item);
		} else {
			// First index whose record comes after the new one in storage order.
			let lo = 0;
			let hi = items.length;
			while (lo < hi) {
				const mid = (lo + hi) >>> 1;
				if (storageBefore(item, items[mid])) hi = mid;
				else lo = mid + 1;
			}
			items.splice(lo, 0, item);
		}
		this.changed();
	}

	/** Call after mutating a record in place (status, assignment...). */
	changed(): void {
		this.version++;
	}

	page(query: PageQuery<T>): Page<T> {
		const items = this.items;
		let end = items.length;
		let start = 0;
		if (query.after) {
			// Records after the cursor in list order are exactly those before it in storage.
			const after = query.after;
			end = this.lowerBound((item) => !storageBefore(item, after));
		}
		if (query.createdTo !== undefined) {
			const to = query.createdTo;
			end = Math.min(
				end,
				this.lowerBound((item) => item.created_ms > to),
			);
		}
		if (query.createdFrom !== undefined) {
			const from = query.createdFrom;
			start = this.lowerBound((item) => item.created_ms >= from);
		}
		const found: T[] = [];
		const match = query.match;
		for (let i = end - 1; i >= start && found.length <= query.limit; i--) {
			if (!match || match(items[i])) found.push(items[i]);
		}
		const hasMore = found.length > query.limit;
		if (hasMore) found.length = query.limit;
		return { items: found, hasMore };
	}

	/** Number of records matching; cached per signature until the next change. */
	count(
		signature: string,
		match: ((item: T) => boolean) | undefined,
		createdFrom?: number,
		createdTo?: number,
	): number {
		const end =
			createdTo === undefined
				? this.items.length
				: this.lowerBound((item) => item.created_ms > createdTo);
		const start =
			createdFrom === undefined ? 0 : this.lowerBound((item) => item.created_ms >= createdFrom);
		// Without a predicate the count is the width of the range: no scan, no cache needed.
		if (!match) return Math.max(0, end - start);
		const cached = this.totals.get(signature);
		if (cached && cached.version === this.version) return cached.total;
		let total = 0;
		for (let i = start; i < end; i++) if (match(this.items[i])) total++;
		this.totals.set(signature, { version: this.version, total });
		return total;
	}

	values(): T[] {
		return this.items.slice();
	}

	/** First index whose record satisfies a predicate that is monotonic in storage order. */
	private lowerBound(isAtOrAfter: (item: T) => boolean): number {
		let lo = 0;
		let hi = this.items.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (isAtOrAfter(this.items[mid])) hi = mid;
			else lo = mid + 1;
		}
		return lo;
	}
}

/** Storage order (reverse of list order): older first; same instant: larger id first. */
function storageBefore(a: Position | Sortable, b: Position | Sortable): boolean {
	const am = 'ms' in a ? a.ms : a.created_ms;
	const bm = 'ms' in b ? b.ms : b.created_ms;
	return am < bm || (am === bm && a.id > b.id);
}

export function positionOf(item: Sortable): Position {
	return { ms: item.created_ms, id: item.id };
}

export class OrganizationData {
	readonly leads = new SortedCollection<LeadRecord>();
	readonly conversations = new SortedCollection<ConversationRecord>();
	readonly agents = new SortedCollection<AgentRecord>();
	readonly webhooks = new Map<string, WebhookRecord>();

	constructor(readonly record: OrganizationRecord) {}

	get id(): string {
		return this.record.id;
	}
}

/** The record with this ID if it belongs to the organization; another organization's does not exist. */
function ownedBy<T extends { organization_id: string }>(
	records: Map<string, T>,
	orgId: string,
	id: string,
): T | undefined {
	const record = records.get(id);
	return record && record.organization_id === orgId ? record : undefined;
}

/** All data of the sandbox; IDs are unique across organizations. */
export class Store {
	readonly organizations = new Map<string, OrganizationData>();
	readonly leads = new Map<string, LeadRecord>();
	readonly conversations = new Map<string, ConversationRecord>();
	readonly agents = new Map<string, AgentRecord>();
	readonly webhooks = new Map<string, WebhookRecord>();
	readonly appointments: AppointmentRecord[] = [];
	readonly pausedConversations = new Set<string>();

	addOrganization(record: OrganizationRecord): OrganizationData {
		const org = new OrganizationData(record);
		this.organizations.set(record.id, org);
		return org;
	}

	org(id: string): OrganizationData {
		const org = this.organizations.get(id);
		if (!org) throw new Error(`Unknown organization ${id}`);
		return org;
	}

	/** A lead as seen by one organization: another organization's lead does not exist. */
	leadOf(orgId: string, id: string): LeadRecord | undefined {
		return ownedBy(this.leads, orgId, id);
	}

	conversationOf(orgId: string, id: string): ConversationRecord | undefined {
		return ownedBy(this.conversations, orgId, id);
	}

	agentOf(orgId: string, id: string): AgentRecord | undefined {
		return ownedBy(this.agents, orgId, id);
	}

	webhookOf(orgId: string, id: string): WebhookRecord | undefined {
		return ownedBy(this.webhooks, orgId, id);
	}

	addLead(lead: LeadRecord): void {
		this.leads.set(lead.id, lead);
		this.org(lead.organization_id).leads.insert(lead);
	}

	addWebhook(webhook: WebhookRecord): void {
		this.webhooks.set(webhook.id, webhook);
		this.org(webhook.organization_id).webhooks.set(webhook.id, webhook);
	}

	deleteWebhook(webhook: WebhookRecord): void {
		this.webhooks.delete(webhook.id);
		this.org(webhook.organization_id).webhooks.delete(webhook.id);
	}
}
