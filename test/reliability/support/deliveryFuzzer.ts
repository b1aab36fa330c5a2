// The deliveries the fuzzed-delivery suite sends: bodies as the service serializes its events,
// and changes to a signed delivery, each of which must make it invalid.

import { createHmac, randomBytes } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import type { RunningSandbox } from '../../../harness/engine';
import { leadEventData } from '../../../sandbox/views';

export const SIGNATURE = 'X-Service-Signature';

export function hmacHex(body: Buffer, key: string): string {
	return createHmac('sha256', key).update(body).digest('hex');
}

/** Bodies exactly as the service serializes events (docs/service-contract.md §8 and §9). */
export function eventBodies(sandbox: RunningSandbox): Buffer[] {
	const state = sandbox.control.state();
	const leads = state.leads.filter((lead) => lead.organization_id === 'org_alpha').slice(0, 12);
	const conversations = state.conversations.slice(0, 6);
	const at = (index: number) => new Date(Date.UTC(2025, 4, 1, 12, 0, index)).toISOString();
	const body = (event: string, data: IDataObject, index: number) =>
		Buffer.from(
			JSON.stringify({ event, timestamp: at(index), organization_id: 'org_alpha', data }),
		);
	// The event data the service sends for a lead, as the sandbox builds it.
	const leadData = leadEventData;
	return [
		...leads.map((lead, index) => body('lead.qualified', leadData(lead), index)),
		...leads.map((lead, index) => body('lead.created', leadData(lead), 20 + index)),
		body('lead.qualified', { ...leadData(leads[0]), name: 'José Ñandú 😀 محمد الأحمد' }, 40),
		...conversations.map((conversation, index) =>
			body(
				'conversation.milestone',
				{ id: conversation.id, lead_id: conversation.lead_id, milestone: 'budget_identified' },
				50 + index,
			),
		),
		body(
			'appointment.booked',
			{ id: 'appt_1', lead_id: leads[1].id, scheduled_at: at(61), location: 'Showroom Palermo' },
			60,
		),
	];
}

export interface Mutation {
	kind: string;
	body: Buffer;
	/** The signature header's value; an array when the header was sent twice; undefined: absent. */
	header: string | string[] | undefined;
}

const HEX = '0123456789abcdef';

/** Re-serializations of the same JSON: the same data, other bytes. */
export function reserialize(body: Buffer, variant: number): Buffer {
	const parsed = JSON.parse(body.toString('utf8')) as IDataObject;
	switch (variant % 4) {
		case 0:
			return Buffer.from(JSON.stringify(parsed, null, 2));
		case 1: {
			const reversed: IDataObject = {};
			for (const key of Object.keys(parsed).reverse()) reversed[key] = parsed[key];
			return Buffer.from(JSON.stringify(reversed));
		}
		case 2:
			return Buffer.from(
				JSON.stringify(parsed).replace(
					/[^\x20-\x7e]/g,
					(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
				) + ' ',
			);
		default:
			return Buffer.from(`${JSON.stringify(parsed)}\n`);
	}
}

/**
 * One change that must make a signed delivery invalid. Kinds are taken in turn so that each is
 * well represented; the details (position, byte, length, secret) come from the seeded PRNG.
 */
export function mutate(
	random: () => number,
	turn: number,
	bodies: Buffer[],
	signingSecret: string,
	otherSecrets: string[],
): Mutation {
	const pick = (n: number) => Math.floor(random() * n);
	const body = bodies[pick(bodies.length)];
	const digest = hmacHex(body, signingSecret);
	const kinds = [
		'body byte flipped',
		'body byte inserted',
		'body byte removed',
		'body truncated',
		're-serialized JSON',
		'digest digit changed',
		'digest truncated',
		'digest too long',
		'digest with a non-hex character',
		'digest of another delivery',
		'digest in base64',
		'digest signed with a wrong secret',
		'header missing',
		'header empty',
		'header duplicated',
		'header sent twice, joined',
	];
	const kind = kinds[turn % kinds.length];
	switch (kind) {
		case 'body byte flipped': {
			const copy = Buffer.from(body);
			const at = pick(copy.length);
			copy[at] ^= 1 + pick(255);
			return { kind, body: copy, header: digest };
		}
		case 'body byte inserted': {
			const at = pick(body.length + 1);
			const copy = Buffer.concat([
				body.subarray(0, at),
				Buffer.from([pick(256)]),
				body.subarray(at),
			]);
			return { kind, body: copy, header: digest };
		}
		case 'body byte removed': {
			const at = pick(body.length);
			return {
				kind,
				body: Buffer.concat([body.subarray(0, at), body.subarray(at + 1)]),
				header: digest,
			};
		}
		case 'body truncated':
			return { kind, body: body.subarray(0, pick(body.length)), header: digest };
		case 're-serialized JSON':
			return { kind, body: reserialize(body, pick(4)), header: digest };
		case 'digest digit changed': {
			const at = pick(digest.length);
			const replacement = HEX.replace(digest[at], '')[pick(15)];
			const changed = digest.slice(0, at) + replacement + digest.slice(at + 1);
			return { kind, body, header: random() < 0.5 ? changed : changed.toUpperCase() };
		}
		case 'digest truncated':
			return { kind, body, header: digest.slice(0, pick(digest.length)) };
		case 'digest too long':
			return {
				kind,
				body,
				header: digest + Array.from({ length: 1 + pick(64) }, () => HEX[pick(16)]).join(''),
			};
		case 'digest with a non-hex character': {
			const at = pick(digest.length);
			const junk = 'gGxz-+ /=.:'[pick(11)];
			return { kind, body, header: digest.slice(0, at) + junk + digest.slice(at + 1) };
		}
		case 'digest of another delivery': {
			let other = bodies[pick(bodies.length)];
			if (other.equals(body)) other = bodies[(bodies.indexOf(other) + 1) % bodies.length];
			return { kind, body, header: hmacHex(other, signingSecret) };
		}
		case 'digest in base64':
			return {
				kind,
				body,
				header: createHmac('sha256', signingSecret).update(body).digest('base64'),
			};
		case 'digest signed with a wrong secret': {
			const secrets = [
				...otherSecrets,
				randomBytes(32).toString('hex'),
				'',
				signingSecret.toUpperCase(),
			];
			return { kind, body, header: hmacHex(body, secrets[pick(secrets.length)]) };
		}
		case 'header missing':
			return { kind, body, header: undefined };
		case 'header empty':
			return { kind, body, header: '' };
		case 'header duplicated':
			return {
				kind,
				body,
				header: random() < 0.5 ? [digest, digest] : [digest, hmacHex(body, 'other')],
			};
		default:
			return { kind, body, header: `${digest}, ${digest}` };
	}
}

/** Guards the fuzzer itself: a "mutation" the service could have sent is no mutation. */
export function couldBeGenuine(mutation: Mutation, signingSecret: string): boolean {
	return (
		typeof mutation.header === 'string' &&
		mutation.header.toLowerCase() === hmacHex(mutation.body, signingSecret)
	);
}

export function headersFor(
	mutation: Mutation,
	random: () => number,
): Record<string, string | string[]> {
	const headers: Record<string, string | string[]> = { 'content-type': 'application/json' };
	const name = [SIGNATURE, SIGNATURE.toLowerCase(), SIGNATURE.toUpperCase()][
		Math.floor(random() * 3)
	];
	if (mutation.header !== undefined) headers[name] = mutation.header;
	return headers;
}
