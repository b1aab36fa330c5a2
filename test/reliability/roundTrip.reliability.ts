// Bodies at the limits go through unchanged: lead notes as large as the service accepts (its
// request body limit is 1 MiB, docs/service-contract.md §5), 10,000-character messages, and names in every
// script, with emoji, combining marks and right-to-left text — through the action node, the
// service, and back through Get and the trigger.

import type { IDataObject } from 'n8n-workflow';

import {
	runActionNode,
	startWebhookReceiver,
	type RunActionNodeOptions,
	type WebhookReceiver,
} from '../../harness/engine';
import { NODE, byId, credentialsOf, useTracedSandbox } from './support/common';
import { count, recordFigure } from './support/figures';
import { SecretTrace } from './support/trace';

const BODY_LIMIT = 1_048_576;
const MESSAGE_CHARACTERS = 10_000;

let receiver: WebhookReceiver;
const trace = new SecretTrace('roundTrip.reliability.ts');
const measured: Record<string, string> = {};
const passed: Record<string, boolean> = {};

const ctx = useTracedSandbox(trace, { retryScale: 0.0005 });

beforeAll(async () => {
	receiver = await startWebhookReceiver();
});

afterAll(async () => {
	await receiver.close();
	const parts = ['notes', 'notesOver', 'update', 'message', 'names', 'trigger'];
	recordFigure({
		id: 'roundTrip',
		pass: parts.every((part) => passed[part] === true),
		measured: parts.map((part) => measured[part] ?? `${part}: not measured`).join('; '),
	});
});

/** Text that starts and ends with a visible character, in many scripts, with lines and tabs. */
const MIXED =
	'Nota interna — cliente: María José Núñez (Zoë), prefiere WhatsApp.\n' +
	'\tPresupuesto: US$ 25.000 · "contado" \\ sin permuta\n' +
	'عميل مهتم بسيارة تويوتا‏ هايلكس 2024 · לקוח מעוניין בטויוטה\n' +
	'王小明想试驾 · 김민준 시승 희망 · 🚗💨 👩🏽‍🔧 🇦🇷 e\u0301 𝓐𝓷𝓪 \u2028 fin ✅';

/** Notes whose JSON body `bodyOf(notes)` is exactly `bytes` long. */
function notesForBodyOf(bodyOf: (notes: string) => IDataObject, bytes: number): string {
	const bodyBytes = (notes: string) => Buffer.byteLength(JSON.stringify(bodyOf(notes)), 'utf8');
	const fixed = bodyBytes(`${MIXED}${MIXED}`);
	const filler = 'abcdefghijklmnopqrstuvwxyz0123456789 '.repeat(
		Math.ceil((bytes - fixed) / 37) + 1,
	);
	const notes = `${MIXED}${filler.slice(0, bytes - fixed)}${MIXED}`;
	if (bodyBytes(notes) !== bytes) throw new Error('notes of the wanted size could not be built');
	return notes;
}

function storedLead(phone: string) {
	return ctx.sandbox.control.state().leads.filter((lead) => lead.phone === phone);
}

describe('lead notes at the 1 MiB request limit', () => {
	const name = 'Notas Grandes 🚙';
	const createWithNotes = (phone: string, notes: string, options: RunActionNodeOptions = {}) =>
		runActionNode(
			{
				resource: 'lead',
				operation: 'create',
				name,
				phone,
				channel: 'api',
				additionalFields: { notes },
			},
			credentialsOf(ctx.sandbox),
			options,
		);

	it('the largest notes that fit are stored unchanged by Create', async () => {
		const phone = '+5491166600001';
		const notes = notesForBodyOf((n) => ({ name, phone, notes: n }), BODY_LIMIT);
		const result = await createWithNotes(phone, notes);
		trace.addRun('create with the largest notes', result);
		const stored = storedLead(phone);
		passed.notes = result.status === 'success' && stored.length === 1 && stored[0].notes === notes;
		measured.notes =
			`Create with ${count(Buffer.byteLength(notes))} bytes of notes (${count(notes.length)} UTF-16 units; request body exactly ${count(BODY_LIMIT)} bytes): ` +
			`${result.status}, stored notes ${stored[0]?.notes === notes ? 'identical' : 'DIFFERENT'}`;

		expect(result.status).toBe('success');
		expect(stored).toHaveLength(1);
		expect(stored[0].notes === notes).toBe(true);
		expect(result.output(NODE)[0].json).not.toHaveProperty('notes');
	});

	const tooLarge: string[] = [];
	let allRefusedClearly = true;

	it.each([
		['one byte more than fits', 1],
		['notes of exactly 1 MiB', 0],
	])(
		'%s: refused by the service with 413, reported clearly, sent once and not stored',
		async (label, extra) => {
			const phone = `+549116660001${extra}`;
			const notes =
				extra === 1
					? notesForBodyOf((n) => ({ name, phone, notes: n }), BODY_LIMIT + 1)
					: `${'x'.repeat(BODY_LIMIT - 1)}y`;
			ctx.sandbox.control.clearRequests();
			const result = await createWithNotes(phone, notes, { continueOnFail: true });
			trace.addRun(`create with ${label}`, result);
			const [item] = result.output(NODE).map((output) => output.json);
			const posts = ctx.sandbox.control.requests().filter((request) => request.method === 'POST');
			allRefusedClearly &&=
				item?.httpCode === '413' &&
				/too large/i.test(String(item?.error)) &&
				posts.length === 1 &&
				storedLead(phone).length === 0;
			passed.notesOver = allRefusedClearly && tooLarge.length === 1;
			tooLarge.push(
				`${label} (${count(Buffer.byteLength(notes))} bytes): HTTP ${String(item?.httpCode)} "${String(item?.error)}", ${posts.length} POST, ${storedLead(phone).length} stored`,
			);
			measured.notesOver = tooLarge.join('; ');

			expect(item).toEqual(
				expect.objectContaining({ httpCode: '413', error: expect.stringMatching(/too large/i) }),
			);
			expect(String(item.description)).toContain('payload_too_large');
			expect(posts).toHaveLength(1);
			expect(storedLead(phone)).toEqual([]);
		},
	);

	it('the largest notes that fit replace the notes unchanged through Update', async () => {
		const lead = ctx.sandbox.control.createChannelLead({ name: 'Lead por actualizar' });
		const notes = notesForBodyOf((n) => ({ notes: n }), BODY_LIMIT);
		const result = await runActionNode(
			{ resource: 'lead', operation: 'update', lead: byId(lead.id), updateFields: { notes } },
			credentialsOf(ctx.sandbox),
		);
		trace.addRun('update with the largest notes', result);
		const stored = ctx.sandbox.control.state().leads.find((candidate) => candidate.id === lead.id);
		passed.update = result.status === 'success' && stored?.notes === notes;
		measured.update = `Update with ${count(Buffer.byteLength(notes))} bytes of notes: ${result.status}, stored notes ${stored?.notes === notes ? 'identical' : 'DIFFERENT'}`;

		expect(result.status).toBe('success');
		expect(stored?.notes === notes).toBe(true);
	});
});

it('a 10,000-character message in many scripts goes out and comes back unchanged', async () => {
	const conversation = ctx.sandbox.control
		.state()
		.conversations.find(
			(c) => c.organization_id === 'org_alpha' && c.status === 'open' && c.channel !== 'phone',
		)!;
	const perCopy = Array.from(MIXED).length;
	const characters = Array.from(MIXED.repeat(Math.ceil(MESSAGE_CHARACTERS / perCopy) + 1));
	const content = characters.slice(0, MESSAGE_CHARACTERS - 1).join('') + '✅';
	expect(Array.from(content)).toHaveLength(MESSAGE_CHARACTERS);

	const sent = await runActionNode(
		{
			resource: 'conversation',
			operation: 'sendMessage',
			conversation: byId(conversation.id),
			type: 'text',
			content,
			pauseAi: false,
		},
		credentialsOf(ctx.sandbox),
	);
	trace.addRun('send a 10,000-character message', sent);
	const message = sent.output(NODE)[0]?.json ?? {};
	const read = await runActionNode(
		{
			resource: 'conversation',
			operation: 'get',
			conversation: byId(conversation.id),
			options: { splitMessages: true },
		},
		credentialsOf(ctx.sandbox),
	);
	trace.addRun('read the conversation back', read);
	const readBack = read.output(NODE).find((item) => item.json.id === message.id)?.json;
	const stored = ctx.sandbox.control
		.state()
		.conversations.find((c) => c.id === conversation.id)!
		.messages.find((m) => m.id === message.id);

	const same = [message.content, readBack?.content, stored?.content].map(
		(text) => text === content,
	);
	passed.message = sent.status === 'success' && same.every(Boolean);
	measured.message =
		`Send Message with ${count(MESSAGE_CHARACTERS)} characters (${count(content.length)} UTF-16 units, ${count(Buffer.byteLength(content))} bytes): ` +
		`send output ${same[0] ? 'identical' : 'DIFFERENT'}, Conversation Get ${same[1] ? 'identical' : 'DIFFERENT'}, stored ${same[2] ? 'identical' : 'DIFFERENT'}`;

	expect(sent.status).toBe('success');
	expect(same).toEqual([true, true, true]);
});

const NAMES = [
	'María José Núñez',
	'Zoë O’Brien-Łukasiewicz',
	'王小明',
	'김민준',
	'محمد عبد الله',
	'דוד כהן',
	'Juan خوان Pérez',
	'Ana 👩🏽‍🔧 Pérez 🇦🇷',
	'🚗🚙🏎️',
	'José (NFD: Jose\u0301)',
	'𝓐𝓷𝓪 𝕸𝖆𝖗𝖎𝖆',
	'Łódź ‏(RLM)‏ Ñoño',
	'Nguyễn Văn Ánh',
	'Ελένη Παπαδοπούλου',
	'Алексей Смирнов',
	'"Quoted" \\ back\\slash <tag> & ampersand',
];

it('names in every script, with emoji and right-to-left text, round-trip through Create, Get and the trigger', async () => {
	const inputs = NAMES.map((name, index) => ({
		name,
		phone: `+5491177700${String(index).padStart(3, '0')}`,
		interest: `${name} quiere una Hilux 🚙`,
	}));
	const created = await runActionNode(
		{
			resource: 'lead',
			operation: 'create',
			name: '={{ $json.name }}',
			phone: '={{ $json.phone }}',
			channel: 'api',
			additionalFields: { vehicleInterest: '={{ $json.interest }}' },
		},
		credentialsOf(ctx.sandbox),
		{ inputItems: inputs },
	);
	trace.addRun('create leads with Unicode names', created);
	const createdLeads = created.output(NODE).map((item) => item.json);
	const read = await runActionNode(
		{ resource: 'lead', operation: 'get', lead: byId('={{ $json.id }}') },
		credentialsOf(ctx.sandbox),
		{ inputItems: createdLeads.map((lead) => ({ id: lead.id }) as IDataObject) },
	);
	trace.addRun('read the leads back', read);
	const readLeads = read.output(NODE).map((item) => item.json);
	const unchanged = inputs.filter(
		(input, index) =>
			createdLeads[index]?.name === input.name &&
			readLeads[index]?.name === input.name &&
			readLeads[index]?.vehicle_interest === input.interest,
	).length;

	// Through the trigger: the service announces each lead; the run item carries the same name.
	const trigger = receiver.attachTrigger(
		{ events: ['lead.qualified'], subscription: 'automatic', options: { output: 'data' } },
		credentialsOf(ctx.sandbox),
	);
	await trigger.activate();
	trace.addSecret(String(trigger.staticData.signingSecret), 'the signing secret');
	receiver.received.length = 0;
	for (const lead of createdLeads) ctx.sandbox.control.qualifyLead(String(lead.id), 90);
	await ctx.sandbox.control.whenDeliveriesSettled();
	const runItems = receiver.received.flatMap((request) => request.result?.runs.flat() ?? []);
	for (const request of receiver.received)
		if (request.result) trace.addDelivery('qualified lead', request.result);
	const viaTrigger = inputs.filter((input) =>
		runItems.some((item) => item.json.phone === input.phone && item.json.name === input.name),
	).length;
	await trigger.deactivate();

	passed.names = unchanged === NAMES.length;
	passed.trigger = viaTrigger === NAMES.length && runItems.length === NAMES.length;
	measured.names = `${unchanged}/${NAMES.length} names (Latin, CJK, Hangul, Arabic, Hebrew, mixed bidi, emoji with ZWJ and flags, combining marks, astral letters) identical in the Create output and through Get`;
	measured.trigger = `${viaTrigger}/${NAMES.length} identical in the trigger's run items`;

	expect(created.status).toBe('success');
	expect(read.status).toBe('success');
	expect(readLeads.map((lead) => lead.name)).toEqual(NAMES);
	expect(createdLeads.map((lead) => lead.name)).toEqual(NAMES);
	expect(readLeads.map((lead) => lead.vehicle_interest)).toEqual(
		inputs.map((input) => input.interest),
	);
	expect(runItems.map((item) => item.json.name).sort()).toEqual([...NAMES].sort());
});

it('shows neither the API keys nor the signing secret in any output item, error or log line of this file', () => {
	expect(trace.scan()).toEqual([]);
});
