// 6a. Cost of verifying a delivery's signature, per delivery, for 1 KB / 10 KB / 100 KB bodies:
// the trigger's own check (isValidSignature), the HMAC alone (the floor any receiver pays), and
// the trigger's whole webhook() in n8n's WebhookContext (parse, dedup, conditions, answer).

import { createHmac, randomBytes } from 'crypto';

import { isValidSignature } from '../../nodes/shared/events/signature';
import { createTriggerHarness } from '../../harness/engine';
import { median } from '../lib/stats';

export interface SignatureArgs {
	sizes: number[];
	batches: number;
	/** Wall time a batch aims for. */
	batchMs: number;
}

export interface SignatureRow {
	bytes: number;
	/** µs per delivery, median of the batches. */
	verifyUs: number;
	hmacUs: number;
	webhookUs: number;
	webhookStatus: number;
}

/** An event body of about `bytes` bytes, unique by `sequence`. */
export function eventOfSize(bytes: number, sequence: number, timestamp?: string): Buffer {
	const base = {
		event: 'lead.qualified',
		timestamp:
			timestamp ??
			new Date(Date.UTC(2026, 0, 1, 0, 0, sequence % 60, sequence % 1000)).toISOString(),
		organization_id: 'org_alpha',
		data: {
			id: `lead_${sequence.toString(16).padStart(16, '0')}`,
			name: 'Ana Pérez',
			phone: '+5491123456789',
			score: 88,
			intent: 'purchase_30_days',
			vehicle_interest: '',
			channel: 'chat_app',
			status: 'qualified',
		},
	};
	const padding = Math.max(0, bytes - Buffer.byteLength(JSON.stringify(base)));
	base.data.vehicle_interest = 'x'.repeat(padding);
	return Buffer.from(JSON.stringify(base));
}

function hexSignature(secret: string, body: Buffer): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

/** How many calls of `work` take about `batchMs`. */
function callsPerBatch(work: (i: number) => unknown, batchMs: number): number {
	let calls = 16;
	for (;;) {
		const started = performance.now();
		for (let i = 0; i < calls; i++) work(i);
		const elapsed = performance.now() - started;
		if (elapsed >= batchMs / 4) return Math.max(1, Math.round((calls * batchMs) / elapsed));
		calls *= 4;
	}
}

/**
 * µs per call of each work, median of batches of about `batchMs`. The works take turns batch by
 * batch, so that warm-up and a drift of the machine weigh on each alike.
 */
function microsecondsPerCall(
	works: Array<(i: number) => unknown>,
	batches: number,
	batchMs: number,
): number[] {
	const calls = works.map((work) => callsPerBatch(work, batchMs));
	const perCall: number[][] = works.map(() => []);
	for (let batch = 0; batch < batches; batch++) {
		works.forEach((work, w) => {
			const started = performance.now();
			for (let i = 0; i < calls[w]; i++) work(i);
			perCall[w].push(((performance.now() - started) * 1000) / calls[w]);
		});
	}
	return perCall.map(median);
}

async function webhookMicroseconds(bytes: number, batches: number, batchMs: number) {
	const secret = randomBytes(32).toString('hex');
	const harness = createTriggerHarness(
		{ events: ['lead.qualified'], subscription: 'manual', signingSecret: secret, options: {} },
		{ apiKey: 'unused-in-manual-mode', baseUrl: 'http://127.0.0.1:9/v1' },
	);
	await harness.activate();
	let sequence = 0;
	// Timestamped now: the trigger refuses (403) events outside its replay window.
	const event = () => eventOfSize(bytes, ++sequence, new Date().toISOString());
	const deliver = async () => {
		const body = event();
		return await harness.deliver({
			body,
			headers: {
				'content-type': 'application/json',
				'x-service-signature': hexSignature(secret, body),
			},
		});
	};
	const first = await deliver();
	if (first.statusCode !== 200) {
		throw new Error(`the trigger answered a valid delivery with HTTP ${first.statusCode}`);
	}
	const perCall: number[] = [];
	let calls = 20;
	for (let batch = 0; batch < batches + 1; batch++) {
		const bodies = Array.from({ length: calls }, () => {
			const body = event();
			return { body, signature: hexSignature(secret, body) };
		});
		const started = performance.now();
		for (const { body, signature } of bodies) {
			await harness.deliver({
				body,
				headers: { 'content-type': 'application/json', 'x-service-signature': signature },
			});
		}
		const elapsed = performance.now() - started;
		// The first batch only sizes the others.
		if (batch === 0) calls = Math.max(5, Math.round((calls * batchMs) / elapsed));
		else perCall.push((elapsed * 1000) / bodies.length);
	}
	return { us: median(perCall), status: first.statusCode };
}

export async function signature(args: SignatureArgs): Promise<SignatureRow[]> {
	const rows: SignatureRow[] = [];
	for (const bytes of args.sizes) {
		const secret = randomBytes(32).toString('hex');
		const body = eventOfSize(bytes, 1);
		const header = hexSignature(secret, body);
		if (!isValidSignature(secret, body, header))
			throw new Error('the signature check refused a valid delivery');
		let sink = 0;
		const [verifyUs, hmacUs] = microsecondsPerCall(
			[
				() => (sink += isValidSignature(secret, body, header) ? 1 : 0),
				() => (sink += createHmac('sha256', secret).update(body).digest().length),
			],
			args.batches,
			args.batchMs,
		);
		if (sink === 0) throw new Error('unreachable');
		const webhook = await webhookMicroseconds(bytes, args.batches, args.batchMs);
		rows.push({ bytes, verifyUs, hmacUs, webhookUs: webhook.us, webhookStatus: webhook.status });
	}
	return rows;
}
