// Checks of user input against the rules of the specification, run before any request is sent.
// Each check returns `undefined` when the value is fine, or a sentence naming the field; the
// operations turn that sentence into a NodeOperationError for the item.

import { ID_FORBIDDEN_CHARACTERS, PAGE_SIZE_MIN, SCORE_MAX, SCORE_MIN } from './constants';

export type Problem = string | undefined;

const E164 = /^\+[1-9]\d{1,14}$/;
// Deliberately loose: one @, no spaces, a dot in the domain. The service decides the rest.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const ID_FORBIDDEN = new RegExp(`[${ID_FORBIDDEN_CHARACTERS}]`);

/** How a value is shown in a message: text in quotes, anything else as written. */
function quoted(value: unknown): string {
	if (typeof value === 'string') return `"${value}"`;
	// JSON has no NaN or Infinity: it would show them as null.
	if (typeof value === 'number') return String(value);
	return value === undefined ? 'nothing' : JSON.stringify(value);
}

/**
 * An optional field counts as given unless it was left out, or an expression gave null (what data
 * from earlier nodes holds for a value it lacks). Any other value is checked, an empty text too:
 * it is no enum value, number or flag, and sending it would only earn the service's 400.
 */
export function isGiven<T>(value: T | null | undefined): value is T {
	return value !== undefined && value !== null;
}

/** Runs a check of an optional field only when the field is given. */
export function ifGiven<Rest extends unknown[]>(
	check: (field: string, value: unknown, ...rest: Rest) => Problem,
	field: string,
	value: unknown,
	...rest: Rest
): Problem {
	return isGiven(value) ? check(field, value, ...rest) : undefined;
}

/** The first problem found, so a caller can list checks in the order a user reads the fields. */
export function firstProblem(...problems: Problem[]): Problem {
	return problems.find((problem) => problem !== undefined);
}

export function checkRequiredText(field: string, value: unknown): Problem {
	if (typeof value !== 'string' || value.trim() === '') return `${field} is required`;
	return undefined;
}

export function checkE164Phone(field: string, value: unknown): Problem {
	if (typeof value === 'string' && E164.test(value)) return undefined;
	return `${field} must be in E.164 format with the country code, like +5491155550123 (got ${quoted(value)})`;
}

export function checkEmail(field: string, value: unknown): Problem {
	if (typeof value === 'string' && EMAIL.test(value)) return undefined;
	return `${field} is not a valid email address (got ${quoted(value)})`;
}

function daysInMonth(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** ISO 8601 date-time, e.g. 2025-05-01T00:00:00Z; the offset may be omitted. */
export function checkIsoDateTime(field: string, value: unknown): Problem {
	const problem = `${field} must be an ISO 8601 date-time, like 2025-05-01T00:00:00Z (got ${quoted(value)})`;
	if (typeof value !== 'string') return problem;
	const match = ISO_DATE_TIME.exec(value.trim());
	if (!match) return problem;
	const [year, month, day, hour, minute, second] = match
		.slice(1, 7)
		.map((part) => Number(part ?? 0));
	const valid =
		month >= 1 &&
		month <= 12 &&
		day >= 1 &&
		day <= daysInMonth(year, month) &&
		hour <= 23 &&
		minute <= 59 &&
		second <= 59;
	return valid ? undefined : problem;
}

export function checkScore(field: string, value: unknown): Problem {
	return checkWholeNumber(field, value, SCORE_MIN, SCORE_MAX);
}

export function checkScoreRange(
	minField: string,
	min: number | undefined,
	maxField: string,
	max: number | undefined,
): Problem {
	if (min !== undefined && max !== undefined && min > max) {
		return `${minField} (${min}) must not be greater than ${maxField} (${max})`;
	}
	return undefined;
}

export function checkDateRange(
	afterField: string,
	after: string | undefined,
	beforeField: string,
	before: string | undefined,
): Problem {
	if (after === undefined || before === undefined) return undefined;
	if (Date.parse(after) > Date.parse(before)) {
		return `${afterField} (${after}) must not be later than ${beforeField} (${before})`;
	}
	return undefined;
}

/** Page size of the node: the node pages by itself, so only the lower bound applies. */
export function checkLimit(field: string, value: unknown): Problem {
	return checkWholeNumber(field, value, PAGE_SIZE_MIN);
}

/** Integers of the specification (scores, follow-up cadence, limits); `maximum` when it sets one. */
export function checkWholeNumber(
	field: string,
	value: unknown,
	minimum: number,
	maximum?: number,
): Problem {
	const inRange =
		typeof value === 'number' &&
		Number.isInteger(value) &&
		value >= minimum &&
		(maximum === undefined || value <= maximum);
	if (inRange) return undefined;
	const range = maximum === undefined ? `of at least ${minimum}` : `from ${minimum} to ${maximum}`;
	return `${field} must be a whole number ${range} (got ${quoted(value)})`;
}

export function checkHttpUrl(field: string, value: unknown): Problem {
	const problem = `${field} must be a publicly accessible http(s) URL (got ${quoted(value)})`;
	if (typeof value !== 'string') return problem;
	try {
		const url = new URL(value.trim());
		if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '') {
			return undefined;
		}
		return problem;
	} catch {
		return problem;
	}
}

/** IDs of leads (`lead_`) and conversations (`conv_`) carry their prefix in the specification. */
export function checkIdPrefix(field: string, value: unknown, prefix: string): Problem {
	if (typeof value !== 'string' || value.trim() === '') return `${field} is required`;
	const id = value.trim();
	if (!id.startsWith(prefix) || id.length === prefix.length || ID_FORBIDDEN.test(id)) {
		return `${field} must be an ID starting with "${prefix}" (got ${quoted(value)})`;
	}
	return undefined;
}

/** Agent IDs have no documented prefix: only presence and URL-safety are checked. */
export function checkPlainId(field: string, value: unknown): Problem {
	if (typeof value !== 'string' || value.trim() === '') return `${field} is required`;
	if (ID_FORBIDDEN.test(value.trim())) return `${field} is not a valid ID (got ${quoted(value)})`;
	return undefined;
}

/** An update that sets no field would change nothing: it is refused rather than sent. */
export function checkFieldsToUpdate(field: string, body: object): Problem {
	if (Object.keys(body).length > 0) return undefined;
	return `${field} is empty: add at least one field to update`;
}

export function checkOneOf(field: string, value: unknown, allowed: readonly string[]): Problem {
	if (typeof value === 'string' && allowed.includes(value)) return undefined;
	return `${field} must be one of ${allowed.join(', ')} (got ${quoted(value)})`;
}

/** Flags: whatever an expression gives a boolean field reaches the node, "yes" or "true" too. */
export function checkBoolean(field: string, value: unknown): Problem {
	if (typeof value === 'boolean') return undefined;
	return `${field} must be true or false (got ${quoted(value)})`;
}

/** Free text; a number is taken as its digits (an expression may give a price or a year). */
export function checkText(field: string, value: unknown): Problem {
	if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) {
		return undefined;
	}
	return `${field} must be text (got ${quoted(value)})`;
}

/** A list whose entries each pass `checkEntry`; a problem names the entry by its position. */
export function checkList(
	field: string,
	value: unknown,
	checkEntry: (field: string, entry: unknown) => Problem,
): Problem {
	if (!Array.isArray(value)) return `${field} must be a list (got ${quoted(value)})`;
	return firstProblem(
		...value.map((entry, index) => checkEntry(`${field} (entry ${index + 1})`, entry)),
	);
}
