import { createHmac, randomBytes } from 'crypto';
import http from 'http';
import https from 'https';
import { RETRY_OFFSETS_MS, SIGNATURE_HEADER } from './constants';
import type { DeliveryLogEntry, RawDeliveryResult } from './contract';
import type { WebhookRecord } from './types';

export interface DispatcherOptions {
	retryScale: number;
	timeoutMs: number;
}

interface Delivery {
	deliveryId: string;
	subscriptionId: string;
	url: string;
	event: string;
	body: Buffer;
	headers: Record<string, string>;
	signature: string;
}

/** Hex HMAC-SHA256 of the exact body bytes; the key is the secret string as handed out. */
export function sign(body: Buffer, secret: string): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Sends signed webhook deliveries and retries failed ones at about 1, 5 and 30 minutes after
 * the first failure (times retryScale), always with the same bytes and signature.
 */
export class WebhookDispatcher {
	private log: DeliveryLogEntry[] = [];
	private pending = 0;
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly inFlight = new Set<http.ClientRequest>();
	private waiters: Array<() => void> = [];
	/** Bumped by cancelAll: callbacks of an older generation do nothing. */
	private generation = 0;

	constructor(
		private readonly options: DispatcherOptions,
		private readonly isSubscribed: (subscriptionId: string) => boolean,
	) {}

	/** Queues one event for one subscriber; `body` is the serialized payload shared by all. */
	deliver(subscription: WebhookRecord, event: string, body: Buffer): void {
		const signature = sign(body, subscription.secret);
		const delivery: Delivery = {
			deliveryId: `dlv_${randomBytes(8).toString('hex')}`,
			subscriptionId: subscription.id,
			url: subscription.url,
			event,
			body,
			signature,
			headers: { [SIGNATURE_HEADER]: signature },
		};
		this.pending++;
		// Started on a timer, so the API response that caused the event is not held up.
		this.later(0, () => this.attempt(delivery, 1, undefined));
	}

	/** One attempt with arbitrary bytes (no retries); signed unless headers override. */
	async deliverRaw(
		subscription: WebhookRecord,
		body: Buffer,
		headers: Record<string, string> = {},
	): Promise<RawDeliveryResult> {
		const signature = sign(body, subscription.secret);
		const delivery: Delivery = {
			deliveryId: `dlv_${randomBytes(8).toString('hex')}`,
			subscriptionId: subscription.id,
			url: subscription.url,
			event: 'raw',
			body,
			signature: headers[SIGNATURE_HEADER] ?? headers[SIGNATURE_HEADER.toLowerCase()] ?? signature,
			headers: { [SIGNATURE_HEADER]: signature, ...headers },
		};
		this.pending++;
		const generation = this.generation;
		try {
			const result = await this.send(delivery);
			if (generation === this.generation) this.record(delivery, 1, result, Date.now());
			return { ...result, ok: isSuccess(result.status) };
		} finally {
			if (generation === this.generation) this.finish();
		}
	}

	entries(): DeliveryLogEntry[] {
		return this.log.map((entry) => ({ ...entry }));
	}

	clearLog(): void {
		this.log = [];
	}

	whenSettled(): Promise<void> {
		if (this.pending === 0) return Promise.resolve();
		return new Promise((resolve) => this.waiters.push(resolve));
	}

	/** Drops every scheduled retry and aborts requests in flight. */
	cancelAll(): void {
		this.generation++;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		for (const request of this.inFlight) request.destroy();
		this.inFlight.clear();
		this.pending = 0;
		this.releaseWaiters();
	}

	private async attempt(delivery: Delivery, attempt: number, firstFailureAt: number | undefined) {
		const generation = this.generation;
		// A deleted subscription gets no more retries.
		if (attempt > 1 && !this.isSubscribed(delivery.subscriptionId)) return this.finish();
		const startedAt = Date.now();
		const result = await this.send(delivery);
		if (generation !== this.generation) return;
		this.record(delivery, attempt, result, startedAt);
		if (isSuccess(result.status) || attempt > RETRY_OFFSETS_MS.length) return this.finish();
		const failedAt = firstFailureAt ?? Date.now();
		const due = failedAt + RETRY_OFFSETS_MS[attempt - 1] * this.options.retryScale;
		this.later(Math.max(0, due - Date.now()), () => this.attempt(delivery, attempt + 1, failedAt));
	}

	private record(
		delivery: Delivery,
		attempt: number,
		result: { status?: number; error?: string },
		at: number,
	): void {
		this.log.push({
			deliveryId: delivery.deliveryId,
			subscriptionId: delivery.subscriptionId,
			url: delivery.url,
			event: delivery.event,
			attempt,
			...(result.status !== undefined ? { status: result.status } : {}),
			...(result.error !== undefined ? { error: result.error } : {}),
			ok: isSuccess(result.status),
			at,
			body: delivery.body.toString('utf8'),
			signature: delivery.signature,
		});
	}

	private send(delivery: Delivery): Promise<{ status?: number; error?: string }> {
		return new Promise((resolve) => {
			let url: URL;
			try {
				url = new URL(delivery.url);
			} catch {
				resolve({ error: 'invalid URL' });
				return;
			}
			// A local simulator never sends traffic off the machine: subscriber URLs elsewhere
			// are accepted (as the service would) but their deliveries are recorded as failed.
			if (!isLoopbackHost(url.hostname)) {
				resolve({ error: `not delivered: ${url.hostname} is not a loopback address` });
				return;
			}
			const client = url.protocol === 'https:' ? https : http;
			let settled = false;
			const done = (result: { status?: number; error?: string }) => {
				if (settled) return;
				settled = true;
				clearTimeout(timer);
				this.inFlight.delete(request);
				resolve(result);
			};
			const request = client.request(url, {
				method: 'POST',
				agent: false,
				// The sandbox is a local simulator: its own client accepts self-signed receiver
				// certificates so that local HTTPS receivers can be tested without a CA.
				rejectUnauthorized: false,
				headers: {
					'Content-Type': 'application/json',
					'Content-Length': String(delivery.body.length),
					'User-Agent': 'lead-conversations-sandbox',
					...delivery.headers,
				},
			});
			this.inFlight.add(request);
			const timer = setTimeout(() => {
				done({ error: `timeout after ${this.options.timeoutMs} ms` });
				request.destroy();
			}, this.options.timeoutMs);
			request.on('response', (response) => {
				response.resume();
				done({ status: response.statusCode });
			});
			request.on('error', (error) => done({ error: error.message || String(error) }));
			request.end(delivery.body);
		});
	}

	private later(ms: number, run: () => void): void {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			run();
		}, ms);
		this.timers.add(timer);
	}

	private finish(): void {
		this.pending = Math.max(0, this.pending - 1);
		if (this.pending === 0) this.releaseWaiters();
	}

	private releaseWaiters(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const resolve of waiters) resolve();
	}
}

export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function isSuccess(status: number | undefined): boolean {
	return status !== undefined && status >= 200 && status < 300;
}
