// Which leads an advisor of the roster takes: an optional rule of four parts, each a column of a
// Data Table row or a field of an entered advisor. A lead fits a rule when it meets every part
// given; an advisor without any part has no rule and takes what no one with a rule fits.

import type { Problem } from '../../shared/validation';
import {
	LEAD_API_CHANNEL,
	LEAD_CHANNELS,
	LEAD_INTENTS,
	SCORE_MAX,
	SCORE_MIN,
} from '../../shared/constants';
import { checkWholeNumber, isGiven } from '../../shared/validation';

export interface AdvisorRule {
	channels?: string[];
	intents?: string[];
	/** Leads scoring at least this; 0 would fit every lead, so it counts as not set. */
	minScore?: number;
	/** Lower-case words, any of which in the lead's vehicle interest fits. */
	vehicleWords?: string[];
}

/** The lead's values a rule reads. */
export interface LeadForRule {
	channel?: unknown;
	intent?: unknown;
	score?: unknown;
	vehicle_interest?: unknown;
}

/** Channels a lead can carry: the spec's list plus `api` for leads created without one. */
export const RULE_CHANNELS: readonly string[] = [...LEAD_CHANNELS, LEAD_API_CHANNEL];
export const RULE_INTENTS: readonly string[] = LEAD_INTENTS;

/** Each rule part: its label in messages and the keys a row may use for it. */
const PARTS = {
	channels: { label: 'Channels', keys: ['channels'] },
	intents: { label: 'Intents', keys: ['intents'] },
	minScore: { label: 'Min Score', keys: ['minScore', 'min_score'] },
	vehicleWords: { label: 'Vehicle Words', keys: ['vehicleWords', 'vehicle_words'] },
} as const;

function quoted(value: unknown): string {
	return typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
}

/**
 * A list given as a list, as JSON text of a list, or as comma-separated text: its entries
 * trimmed, blanks left out. Undefined when the value is no list in any of these forms.
 */
export function textList(value: unknown): unknown[] | undefined {
	if (!isGiven(value)) return [];
	if (Array.isArray(value)) return value.filter((entry) => !isBlank(entry)).map(trimmed);
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (text.startsWith('[')) {
		try {
			const parsed = JSON.parse(text) as unknown;
			if (Array.isArray(parsed)) return textList(parsed);
		} catch {
			// Not JSON: read as comma-separated text below.
		}
	}
	return text
		.split(',')
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

function isBlank(entry: unknown): boolean {
	return !isGiven(entry) || (typeof entry === 'string' && entry.trim() === '');
}

function trimmed(entry: unknown): unknown {
	return typeof entry === 'string' ? entry.trim() : entry;
}

/** The first key of `keys` the row gives a value for, and that value. */
function valueOf(row: Record<string, unknown>, keys: readonly string[]): unknown {
	const key = keys.find((name) => isGiven(row[name]));
	return key === undefined ? undefined : row[key];
}

function listOf(
	field: string,
	value: unknown,
	allowed?: readonly string[],
): { list?: string[]; problem: Problem } {
	const entries = textList(value);
	if (entries === undefined) {
		return { problem: `${field} must be a list or comma-separated text (got ${quoted(value)})` };
	}
	for (const entry of entries) {
		if (typeof entry !== 'string' || (allowed && !allowed.includes(entry))) {
			const what = allowed ? `one of ${allowed.join(', ')}` : 'text';
			return { problem: `${field} has ${quoted(entry)}: each must be ${what}` };
		}
	}
	return { list: entries.length > 0 ? (entries as string[]) : undefined, problem: undefined };
}

/**
 * The rule of one roster row, or the problem of that row naming `field` (the row) and the part.
 * Empty cells, empty lists and a Min Score of 0 set nothing; no part set means no rule.
 */
export function ruleOfRow(
	field: string,
	row: Record<string, unknown>,
): { rule?: AdvisorRule; problem: Problem } {
	const channels = listOf(
		`${field} ${PARTS.channels.label}`,
		valueOf(row, PARTS.channels.keys),
		RULE_CHANNELS,
	);
	if (channels.problem) return { problem: channels.problem };
	const intents = listOf(
		`${field} ${PARTS.intents.label}`,
		valueOf(row, PARTS.intents.keys),
		RULE_INTENTS,
	);
	if (intents.problem) return { problem: intents.problem };
	const words = listOf(
		`${field} ${PARTS.vehicleWords.label}`,
		valueOf(row, PARTS.vehicleWords.keys),
	);
	if (words.problem) return { problem: words.problem };
	let minScore = valueOf(row, PARTS.minScore.keys);
	if (minScore === '') minScore = undefined;
	if (isGiven(minScore)) {
		const problem = checkWholeNumber(
			`${field} ${PARTS.minScore.label}`,
			minScore,
			SCORE_MIN,
			SCORE_MAX,
		);
		if (problem) return { problem };
	}
	const rule: AdvisorRule = {};
	if (channels.list) rule.channels = channels.list;
	if (intents.list) rule.intents = intents.list;
	if (typeof minScore === 'number' && minScore > SCORE_MIN) rule.minScore = minScore;
	if (words.list) rule.vehicleWords = words.list.map((word) => word.toLowerCase());
	return { rule: Object.keys(rule).length > 0 ? rule : undefined, problem: undefined };
}

/** Whether the lead meets every part of the rule. */
export function fits(rule: AdvisorRule, lead: LeadForRule): boolean {
	if (rule.channels && !rule.channels.includes(String(lead.channel))) return false;
	if (rule.intents && !rule.intents.includes(String(lead.intent))) return false;
	if (rule.minScore !== undefined) {
		if (typeof lead.score !== 'number' || lead.score < rule.minScore) return false;
	}
	if (rule.vehicleWords) {
		const interest = typeof lead.vehicle_interest === 'string' ? lead.vehicle_interest : '';
		const lower = interest.toLowerCase();
		if (!rule.vehicleWords.some((word) => lower.includes(word))) return false;
	}
	return true;
}

/** The lead's values a rule reads, as a message shows them. */
export function describeLeadForRules(lead: LeadForRule): string {
	const interest = isGiven(lead.vehicle_interest) ? quoted(lead.vehicle_interest) : 'none';
	return `channel ${String(lead.channel)}, intent ${String(lead.intent)}, score ${String(lead.score)}, vehicle interest ${interest}`;
}
