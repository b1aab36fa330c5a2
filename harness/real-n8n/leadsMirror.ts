// The leads mirror of examples/leads-mirror-to-data-table.json inside a real n8n: its Data Table
// made through n8n's public API, read back, and compared field by field with GET /leads; and
// the random changes a sales floor makes to leads, applied to the sandbox. Used by the e2e
// suite, the queue suite and the bench.

import { readFileSync } from 'fs';
import { join } from 'path';

import { FLAT_LEAD_COLUMNS } from '../../nodes/shared/flatLead';
import { LEAD_CHANNELS, ORG_ALPHA } from '../../sandbox/constants';
import { seededRandom } from '../support/random';
import type { RunningSandbox, StoredLead } from '../../sandbox/contract';
import type { N8nPublicApi } from './n8n-server';
import { examplesDir } from './paths';

export const MIRROR_EXAMPLE = 'leads-mirror-to-data-table.json';
export const INSTANT_EXAMPLE = 'qualified-and-assigned-to-data-table.json';
export const MIRROR_TABLE = 'Leads';

/** The lead's fields as the table's columns (the Flat columns); `id` is a system column of n8n's data tables. */
export const LEAD_FIELDS = FLAT_LEAD_COLUMNS;
export const columnOf = (field: string) => (field === 'id' ? 'lead_id' : field);

/** The example workflow as shipped, with `edit` applied to its polling trigger's parameters. */
export function mirrorWorkflow(
	file: string,
	edit: (parameters: Record<string, unknown>) => void = () => {},
): { id: string; name: string; nodes: any[]; connections: unknown; settings: unknown } {
	const workflow = JSON.parse(readFileSync(join(examplesDir, file), 'utf8'));
	for (const node of workflow.nodes) {
		if (String(node.type).endsWith('.leadConversationsPollTrigger')) edit(node.parameters);
	}
	return workflow;
}

/** Creates the table the examples upsert into, through n8n's public API; returns its ID. */
export async function createLeadsTable(api: N8nPublicApi): Promise<string> {
	const columns = LEAD_FIELDS.map((field) => ({
		name: columnOf(field),
		type: field === 'score' ? 'number' : 'string',
	}));
	const res = await api.request('POST', '/data-tables', { name: MIRROR_TABLE, columns });
	if (res.status !== 201) throw new Error(`POST /data-tables: ${res.status} ${res.text}`);
	return String(res.json.id);
}

/** Every row of a data table, page by page (250 a page, the public API's most). */
export async function readTableRows(api: N8nPublicApi, tableId: string): Promise<any[]> {
	const rows: any[] = [];
	let cursor: string | undefined;
	do {
		const query = `limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
		const res = await api.request('GET', `/data-tables/${tableId}/rows?${query}`);
		if (res.status !== 200) throw new Error(`GET rows: ${res.status} ${res.text}`);
		rows.push(...res.json.data);
		cursor = res.json.nextCursor ?? undefined;
	} while (cursor);
	return rows;
}

export interface MirrorDifferences {
	differingCells: string[];
	missing: string[];
	extra: string[];
	duplicated: string[];
}

/** The table against the leads, field by field: what differs, what is missing, what is extra. */
export function mirrorDifferences(rows: any[], leads: StoredLead[]): MirrorDifferences {
	const byId = new Map<string, any[]>();
	for (const row of rows) byId.set(row.lead_id, [...(byId.get(row.lead_id) ?? []), row]);
	const differences: MirrorDifferences = {
		differingCells: [],
		missing: [],
		extra: [],
		duplicated: [],
	};
	for (const lead of leads) {
		const found = byId.get(lead.id);
		byId.delete(lead.id);
		if (!found) {
			differences.missing.push(lead.id);
			continue;
		}
		if (found.length > 1) differences.duplicated.push(lead.id);
		for (const field of LEAD_FIELDS) {
			const want = (lead as unknown as Record<string, unknown>)[field] ?? null;
			const have = found[0][columnOf(field)] ?? null;
			if (want !== have) {
				differences.differingCells.push(`${lead.id}.${field}: ${String(have)} ≠ ${String(want)}`);
			}
		}
	}
	differences.extra.push(...byId.keys());
	return differences;
}

/** Whose leads a mirror reads and changes: an API key and its organization. */
export interface MirrorAccount {
	apiKey: string;
	organizationId: string;
}

/** The sandbox's full key and its organization, unless a test names another. */
const fullAccount = (sandbox: RunningSandbox): MirrorAccount => ({
	apiKey: sandbox.keys.full,
	organizationId: ORG_ALPHA,
});

/** The leads of one organization as GET /leads returns them. */
export async function leadsOfAccount(
	sandbox: RunningSandbox,
	apiKey = sandbox.keys.full,
): Promise<StoredLead[]> {
	const leads: StoredLead[] = [];
	let cursor: string | undefined;
	do {
		const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
		const res = await fetch(`${sandbox.baseUrl}/leads?${query}`, {
			headers: { 'X-API-Key': apiKey },
		});
		const body = (await res.json()) as { data: StoredLead[]; pagination: any };
		leads.push(...body.data);
		cursor = body.pagination.next_cursor ?? undefined;
	} while (cursor);
	return leads;
}

const ADVISORS = ['user_ana_lopez', 'user_bruno_diaz', 'user_carla_ruiz'];
const INTERESTS = ['SUV', 'Pickup 4x4', 'Compact sedan', 'Electric hatchback', 'Used minivan'];
const CHANNELS = LEAD_CHANNELS;

/** PATCH /leads/{id} on the sandbox, as a person or the service's AI would change a lead. */
export async function patchLead(
	sandbox: RunningSandbox,
	id: string,
	body: object,
	apiKey = sandbox.keys.full,
): Promise<StoredLead> {
	const res = await fetch(`${sandbox.baseUrl}/leads/${id}`, {
		method: 'PATCH',
		headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!res.ok) throw new Error(`PATCH /leads/${id}: ${res.status}`);
	return (await res.json()) as StoredLead;
}

/**
 * One change of the kinds a sales floor makes: AI scoring and qualification, status moves
 * (closed and lost included), assignment and unassignment, vehicle interest, a new lead from a
 * channel. `leadId` is the lead to change (a new lead ignores it). Returns the lead after it.
 */
export async function randomChange(
	sandbox: RunningSandbox,
	leadId: string,
	random: () => number,
	account: MirrorAccount = fullAccount(sandbox),
): Promise<{ kind: string; lead: StoredLead }> {
	const patch = (body: object) => patchLead(sandbox, leadId, body, account.apiKey);
	const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
	const kind = pick([
		'qualify',
		'qualify',
		'closed',
		'lost',
		'in_conversation',
		'assign',
		'unassign',
		'interest',
		'newLead',
	]);
	switch (kind) {
		case 'qualify':
			return { kind, lead: sandbox.control.qualifyLead(leadId, 40 + Math.floor(random() * 61)) };
		case 'closed':
		case 'lost':
		case 'in_conversation':
			return { kind, lead: await patch({ status: kind }) };
		case 'assign':
			return { kind, lead: await patch({ assigned_to: pick(ADVISORS) }) };
		case 'unassign':
			return { kind, lead: await patch({ assigned_to: null }) };
		case 'interest':
			return { kind, lead: await patch({ vehicle_interest: pick(INTERESTS) }) };
		default: {
			const fields = { channel: pick(CHANNELS), organization_id: account.organizationId };
			return { kind, lead: sandbox.control.createChannelLead(fields) };
		}
	}
}

/** A seeded order of the leads to change: each at most once, so each change is one item. */
export function changeOrder(leads: StoredLead[], seed: number): string[] {
	const random = seededRandom(seed);
	const ids = leads.map((lead) => lead.id);
	for (let i = ids.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[ids[i], ids[j]] = [ids[j], ids[i]];
	}
	return ids;
}
