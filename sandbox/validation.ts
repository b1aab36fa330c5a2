import { PAGE_LIMIT_DEFAULT, PAGE_SIZE_MAX, PAGE_SIZE_MIN } from './constants';
import { invalidField, invalidRequest } from './errors';

// Validation helpers. Every failure is a 400 invalid_request whose message starts with the
// field name. Unknown body fields and unknown query parameters are ignored.

export type JsonObject = Record<string, unknown>;

const INTEGER = /^-?\d+$/;
// ISO 8601 date or date-time; without an offset the time is read as UTC.
const ISO_8601 =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

export function parseLimit(raw: string | null): number {
	if (raw === null) return PAGE_LIMIT_DEFAULT;
	return parseIntegerParam('limit', raw, PAGE_SIZE_MIN, PAGE_SIZE_MAX);
}

export function parseIntegerParam(name: string, raw: string, min: number, max: number): number {
	if (!INTEGER.test(raw)) throw invalidField(name, `must be an integer from ${min} to ${max}`);
	const value = Number(raw);
	if (value < min || value > max)
		throw invalidField(name, `must be an integer from ${min} to ${max}`);
	return value;
}

export function parseEnumParam<T extends string>(
	name: string,
	raw: string,
	allowed: readonly T[],
): T {
	if (!(allowed as readonly string[]).includes(raw))
		throw invalidField(name, `must be one of ${allowed.join(', ')}`);
	return raw as T;
}

/** Milliseconds since the epoch of an ISO 8601 date-time. */
export function parseIsoParam(name: string, raw: string): number {
	const ms = parseIso(raw);
	if (ms === undefined)
		throw invalidField(name, 'must be an ISO 8601 date-time, e.g. 2025-01-31T00:00:00Z');
	return ms;
}

export function parseIso(raw: string): number | undefined {
	const m = ISO_8601.exec(raw);
	if (!m) return undefined;
	const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
	const month = Number(mo);
	const day = Number(d);
	if (
		month < 1 ||
		month > 12 ||
		day < 1 ||
		day > 31 ||
		Number(h) > 23 ||
		Number(mi) > 59 ||
		Number(s) > 59
	) {
		return undefined;
	}
	// Reject dates such as 2025-02-30, which Date would roll over into March.
	if (new Date(Date.UTC(Number(y), month - 1, day)).getUTCDate() !== day) return undefined;
	let text = raw.replace(' ', 'T');
	if (!m[4]) text += 'T00:00:00';
	if (!zone) text += 'Z';
	else if (/^[+-]\d{4}$/.test(zone)) text = text.slice(0, -2) + ':' + text.slice(-2);
	const ms = Date.parse(text);
	return Number.isNaN(ms) ? undefined : ms;
}

export function parseJsonBody(text: string): unknown {
	if (text.trim() === '') throw invalidRequest('body: a JSON object is required');
	try {
		return JSON.parse(text);
	} catch (error) {
		throw invalidRequest(`body: invalid JSON (${(error as Error).message})`);
	}
}

export function requireObject(body: unknown, field = 'body'): JsonObject {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		throw invalidField(field, 'must be a JSON object');
	}
	return body as JsonObject;
}

export function has(body: JsonObject, field: string): boolean {
	return Object.prototype.hasOwnProperty.call(body, field) && body[field] !== undefined;
}

export function requiredString(body: JsonObject, field: string, label = field): string {
	if (!has(body, field) || body[field] === null) throw invalidField(label, 'is required');
	const value = body[field];
	if (typeof value !== 'string') throw invalidField(label, 'must be a string');
	if (value.trim() === '') throw invalidField(label, 'must not be empty');
	return value;
}

/** undefined when absent, null when explicitly null, otherwise the string. */
export function optionalString(
	body: JsonObject,
	field: string,
	label = field,
): string | null | undefined {
	if (!has(body, field)) return undefined;
	const value = body[field];
	if (value === null) return null;
	if (typeof value !== 'string') throw invalidField(label, 'must be a string or null');
	return value;
}

export function optionalEnum<T extends string>(
	body: JsonObject,
	field: string,
	allowed: readonly T[],
	label = field,
): T | undefined {
	if (!has(body, field)) return undefined;
	const value = body[field];
	if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
		throw invalidField(label, `must be one of ${allowed.join(', ')}`);
	}
	return value as T;
}

export function optionalInteger(
	body: JsonObject,
	field: string,
	min: number,
	max: number,
	label = field,
): number | undefined {
	if (!has(body, field)) return undefined;
	const value = body[field];
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
		throw invalidField(label, `must be an integer from ${min} to ${max}`);
	}
	return value;
}

export function optionalBoolean(body: JsonObject, field: string): boolean | undefined {
	if (!has(body, field) || body[field] === null) return undefined;
	if (typeof body[field] !== 'boolean') throw invalidField(field, 'must be true or false');
	return body[field] as boolean;
}

export function optionalStringArray(
	body: JsonObject,
	field: string,
	label = field,
): string[] | undefined {
	if (!has(body, field)) return undefined;
	const value = body[field];
	if (!Array.isArray(value)) throw invalidField(label, 'must be an array of strings');
	for (const item of value) {
		if (typeof item !== 'string' || item.trim() === '') {
			throw invalidField(label, 'must be an array of non-empty strings');
		}
	}
	return value as string[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isEmail(value: string): boolean {
	return EMAIL.test(value);
}

export function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
	} catch {
		return false;
	}
}
